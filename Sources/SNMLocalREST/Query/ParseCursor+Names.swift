import SNMWire

/// Names, quoted values and JSON paths: the pieces every PostgREST parameter grammar shares
/// (`pFieldName`, `pQuotedValue`, `pJsonPath`, `pIdentifier` in QueryParams.hs).
extension ParseCursor {
  /// `"quoted \" name"` or identifier words joined by `-` (a `-` before `>` ends the name).
  /// Each word is trimmed of spaces.
  mutating func fieldName() throws(RESTError) -> String {
    if currentByte == UInt8(ascii: "\"") { return try quotedValue() }
    let start = position
    var simple = true
    repeat {
      guard let word = identifierRange() else {
        throw failure(expecting: "field name (* or [a..z0..9_$])")
      }
      if bytes[word.lowerBound] == 0x20 || bytes[word.upperBound - 1] == 0x20 { simple = false }
    } while consumeNameDash()
    if simple { return text(from: start) }
    // Words are trimmed one by one: `a - b` is `a-b`.
    return text(from: start).split(separator: "-", omittingEmptySubsequences: false)
      .map { String($0).trimmingSpaces() }.joined(separator: "-")
  }

  /// A `-` inside a name (not the start of `->`).
  private mutating func consumeNameDash() -> Bool {
    guard currentByte == UInt8(ascii: "-"), let next = peek(1), next != ">",
      ParseCursor.isIdentifierScalar(next)
    else { return false }
    position += 1
    return true
  }

  /// The byte range of one or more identifier characters; nil (nothing consumed) when none.
  private mutating func identifierRange() -> Range<Int>? {
    let start = position
    while let scalar = current, ParseCursor.isIdentifierScalar(scalar) { advance() }
    return position > start ? start..<position : nil
  }

  /// One or more identifier characters, trimmed; nil (nothing consumed) when there are none.
  mutating func identifierOrNil() -> String? {
    guard let range = identifierRange() else { return nil }
    return String(decoding: bytes[range], as: UTF8.self).trimmingSpaces()
  }

  /// `"..."` with `\x` meaning `x`.
  mutating func quotedValue() throws(RESTError) -> String {
    try expect("\"")
    var out: [UInt8] = []
    while position < bytes.count {
      let byte = bytes[position]
      if byte == UInt8(ascii: "\"") {
        position += 1
        return String(decoding: out, as: UTF8.self)
      }
      if byte == UInt8(ascii: "\\") {
        position += 1
        guard position < bytes.count else { break }
      }
      let start = position
      advance()
      out.append(contentsOf: bytes[start..<position])
    }
    throw failure(details: "unexpected end of input expecting closing quote \"\\\"\"")
  }

  /// A name with an optional JSON path, with spaces around it skipped (`pField`).
  mutating func field() throws(RESTError) -> FieldPath {
    skipSpace()
    let name = try fieldName()
    let path = try jsonPath()
    skipSpace()
    return FieldPath(name: name, path: path)
  }

  /// Zero or more `->key`, `->>key`, `->0`, `->-1`.
  mutating func jsonPath() throws(RESTError) -> [FieldPath.Step] {
    var steps: [FieldPath.Step] = []
    while looksAt("->") {
      let asText = looksAt("->>")
      position += asText ? 3 : 2
      steps.append(FieldPath.Step(asText: asText, operand: try jsonOperand()))
    }
    return steps
  }

  /// An index (digits, optional `-`, followed by a path end) or a key (`pJsonKeyName`: quoted,
  /// or words of any characters but `(-:.,>)`, joined by `-`, each trimmed).
  private mutating func jsonOperand() throws(RESTError) -> FieldPath.Operand {
    let start = position
    var index = position
    let negative = index < bytes.count && bytes[index] == UInt8(ascii: "-")
    if negative { index += 1 }
    let digitsStart = index
    while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 { index += 1 }
    if index > digitsStart {
      let save = position
      position = index
      if isAtEnd || looksAt("->") || looksAt("::") || looksAt(".") || looksAt(",")
        || looksAt(")")
      {
        if let value = Int(text(from: start)) { return .index(value) }
      }
      if negative {
        // Parsec's `eof` shows the token in single quotes.
        let token = current.map { "'\(Character($0))'" } ?? "end of input"
        throw failure(
          details:
            "unexpected \(token) expecting digit, \"->\", \"::\", \".\", \",\" or end of input")
      }
      position = save
    }
    if negative {
      position = digitsStart
      throw failure(expecting: "digit")
    }
    if currentByte == UInt8(ascii: "\"") { return .key(try quotedValue()) }
    var words: [String] = []
    repeat {
      let wordStart = position
      while let byte = currentByte, !ParseCursor.jsonKeyStops.contains(byte) { advance() }
      guard position > wordStart else {
        throw failure(
          expecting: words.isEmpty
            ? "\"-\", digit or any non reserved character different from: .,>()"
            : "any non reserved character different from: .,>()")
      }
      words.append(text(from: wordStart).trimmingCharacters(in: " \t"))
    } while consumeKeyDash()
    return .key(words.joined(separator: "-"))
  }

  /// The bytes that end a word of a JSON key.
  private static let jsonKeyStops: Set<UInt8> = Set("(-:.,>)".utf8)

  /// A `-` inside a JSON key (not the start of `->`).
  private mutating func consumeKeyDash() -> Bool {
    guard currentByte == UInt8(ascii: "-"), peek(1) != ">" else { return false }
    position += 1
    return true
  }

  /// Letters, digits, `_`, `$`, spaces, trimmed (a cast type, an fts config).
  mutating func identifier(expecting: String = "letter or digit") throws(RESTError) -> String {
    guard let word = identifierOrNil() else { throw failure(expecting: expecting) }
    return word
  }
}

extension String {
  /// The string without leading and trailing spaces (not tabs: PostgREST's `T.strip` trims all
  /// white space, but only spaces can reach an identifier).
  func trimmingSpaces() -> String {
    let utf8 = self.utf8
    guard utf8.first == 0x20 || utf8.last == 0x20 else { return self }
    var slice = Substring(self).utf8[...]
    while slice.first == 0x20 { slice.removeFirst() }
    while slice.last == 0x20 { slice.removeLast() }
    return String(Substring(slice))
  }
}
