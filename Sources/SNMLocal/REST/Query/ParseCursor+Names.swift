/// Names, quoted values and JSON paths: the pieces every PostgREST parameter grammar shares
/// (`pFieldName`, `pQuotedValue`, `pJsonPath`, `pIdentifier` in QueryParams.hs).
extension ParseCursor {
  /// `"quoted \" name"` or identifier words joined by `-` (a `-` before `>` ends the name).
  /// Each word is trimmed of spaces.
  mutating func fieldName() throws(RESTError) -> String {
    if current == "\"" { return try quotedValue() }
    var words: [String] = []
    repeat {
      guard let word = identifierOrNil() else {
        throw failure(expecting: "field name (* or [a..z0..9_$])")
      }
      words.append(word)
    } while consumeNameDash()
    return words.joined(separator: "-")
  }

  /// A `-` inside a name (not the start of `->`).
  private mutating func consumeNameDash() -> Bool {
    guard current == "-", peek(1) != ">" else { return false }
    guard let next = peek(1), ParseCursor.isIdentifierScalar(next) else { return false }
    position += 1
    return true
  }

  /// One or more identifier characters, trimmed; nil (nothing consumed) when there are none.
  mutating func identifierOrNil() -> String? {
    let start = position
    while let scalar = current, ParseCursor.isIdentifierScalar(scalar) { position += 1 }
    guard position > start else { return nil }
    return text(from: start).trimmingSpaces()
  }

  /// `"..."` with `\x` meaning `x`.
  mutating func quotedValue() throws(RESTError) -> String {
    try expect("\"")
    var out = String.UnicodeScalarView()
    while let scalar = current {
      position += 1
      if scalar == "\"" { return String(out) }
      if scalar == "\\" {
        guard let escaped = current else { break }
        out.append(escaped)
        position += 1
      } else {
        out.append(scalar)
      }
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

  /// An index (digits, optional `-`, followed by a path end) or a key (a field name).
  private mutating func jsonOperand() throws(RESTError) -> FieldPath.Operand {
    let start = position
    var index = position
    if index < scalars.count, scalars[index] == "-" { index += 1 }
    let digitsStart = index
    while index < scalars.count, ("0"..."9").contains(scalars[index]) { index += 1 }
    if index > digitsStart {
      let save = position
      position = index
      if isAtEnd || looksAt("->") || looksAt("::") || looksAt(".") || looksAt(",")
        || looksAt(")")
      {
        let digits = text(from: start)
        if let value = Int(digits) { return .index(value) }
      }
      position = save
    }
    if current == "-" {
      throw failure(details: "unexpected \"-\" expecting digit")
    }
    return .key(try fieldName())
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
    var scalars = Substring(self).unicodeScalars[...]
    while scalars.first == " " { scalars.removeFirst() }
    while scalars.last == " " { scalars.removeLast() }
    return String(String.UnicodeScalarView(scalars))
  }
}
