/// Reads TOML bytes into a `TOMLTable`, refusing what TOML forbids (a key twice, a table defined
/// twice, a value after a value on one line, control characters in strings) and what this reader
/// leaves out (floats, dates, times), with the line and column of the first problem.
///
/// ```swift
/// var parser = TOMLParser(bytes: Array(text.utf8), file: "config.toml")
/// let root = try parser.parse()
/// ```
/// Nesting (arrays, inline tables, dotted keys) deeper than `maximumDepth` is refused, so no
/// input can exhaust the stack. Throws `TOMLError`.
struct TOMLParser {
  let bytes: [UInt8]
  let file: String
  var index = 0
  var line = 1
  var lineStart = 0

  /// Levels of arrays, inline tables and key parts one value may sit under.
  static let maximumDepth = 100

  mutating func parse() throws(TOMLError) -> TOMLTable {
    if let bad = Self.firstInvalidUTF8(bytes) {
      let (line, start) = lineOf(offset: bad)
      throw TOMLError(
        file: file, at: TOMLPosition(line: line, column: column(from: start, to: bad)),
        "the file is not UTF-8 text")
    }
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
      index = 3
      lineStart = 3
    }
    let root = TOMLBuilderTable(definition: .header, position: TOMLPosition(line: 1, column: 1))
    var current = root
    while true {
      skipWhitespace()
      guard let byte = peek() else { break }
      switch byte {
      case UInt8(ascii: "#"):
        try skipComment()
      case UInt8(ascii: "\n"), UInt8(ascii: "\r"):
        break
      case UInt8(ascii: "["):
        current = try header(root: root)
      default:
        let keyPosition = position
        let key = try self.key(depth: 0)
        skipWhitespace()
        guard peek() == UInt8(ascii: "=") else {
          throw error("expected '=' after the key \(TOMLBuilderTable.display(key.map(\.name)))")
        }
        index += 1
        skipWhitespace()
        let value = try self.value(depth: key.count, path: current.path + key.map(\.name))
        try current.insert(key, value, at: keyPosition, file: file)
      }
      try endOfLine()
    }
    return root.frozen()
  }

  // MARK: - Lines

  var position: TOMLPosition {
    TOMLPosition(line: line, column: column(from: lineStart, to: index))
  }

  func error(_ message: String, at position: TOMLPosition? = nil) -> TOMLError {
    TOMLError(file: file, at: position ?? self.position, message)
  }

  func peek(_ ahead: Int = 0) -> UInt8? {
    index + ahead < bytes.count ? bytes[index + ahead] : nil
  }

  func column(from start: Int, to end: Int) -> Int {
    var count = 1
    var offset = start
    while offset < end && offset < bytes.count {
      if bytes[offset] & 0xC0 != 0x80 { count += 1 }
      offset += 1
    }
    return count
  }

  func lineOf(offset: Int) -> (line: Int, start: Int) {
    var line = 1
    var start = 0
    for at in 0..<min(offset, bytes.count) where bytes[at] == UInt8(ascii: "\n") {
      line += 1
      start = at + 1
    }
    return (line, start)
  }

  mutating func skipWhitespace() {
    while let byte = peek(), byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") { index += 1 }
  }

  /// Consumes a newline (`\n` or `\r\n`) if one is next; a lone `\r` is an error.
  mutating func newline() throws(TOMLError) -> Bool {
    if peek() == UInt8(ascii: "\n") {
      index += 1
    } else if peek() == UInt8(ascii: "\r") {
      guard peek(1) == UInt8(ascii: "\n") else {
        throw error("a carriage return without a newline")
      }
      index += 2
    } else {
      return false
    }
    line += 1
    lineStart = index
    return true
  }

  mutating func skipComment() throws(TOMLError) {
    index += 1
    while let byte = peek(), byte != UInt8(ascii: "\n") {
      if byte == UInt8(ascii: "\r"), peek(1) == UInt8(ascii: "\n") { break }
      if Self.isControl(byte) {
        throw error("a comment may not hold the control character \(Self.hex(byte))")
      }
      index += 1
    }
  }

  /// After a key/value pair or a header: blanks, a comment, then a newline or the end.
  mutating func endOfLine() throws(TOMLError) {
    skipWhitespace()
    if peek() == UInt8(ascii: "#") { try skipComment() }
    if peek() == nil { return }
    guard try newline() else { throw error("expected the end of the line") }
  }

  /// Blanks, newlines and comments, as arrays allow between their values.
  mutating func skipBlank() throws(TOMLError) {
    while true {
      skipWhitespace()
      if peek() == UInt8(ascii: "#") { try skipComment() }
      guard try newline() else { return }
    }
  }

  // MARK: - Keys and headers

  /// `a.b."c d"` as its parts.
  mutating func key(depth: Int) throws(TOMLError) -> [(name: String, position: TOMLPosition)] {
    var parts: [(name: String, position: TOMLPosition)] = []
    while true {
      skipWhitespace()
      let start = position
      let name: String
      switch peek() {
      case UInt8(ascii: "\""):
        if peek(1) == UInt8(ascii: "\""), peek(2) == UInt8(ascii: "\"") {
          throw error("a key may not be a multi-line string")
        }
        name = try basicString()
      case UInt8(ascii: "'"):
        if peek(1) == UInt8(ascii: "'"), peek(2) == UInt8(ascii: "'") {
          throw error("a key may not be a multi-line string")
        }
        name = try literalString()
      default:
        let begin = index
        while let byte = peek(), Self.isBareKey(byte) { index += 1 }
        guard index > begin else {
          throw error("expected a key" + (characterAhead().map { ", found \($0)" } ?? ""))
        }
        name = String(decoding: bytes[begin..<index], as: UTF8.self)
      }
      parts.append((name, start))
      guard depth + parts.count <= Self.maximumDepth else {
        throw error("keys and values nest more than \(Self.maximumDepth) levels deep", at: start)
      }
      skipWhitespace()
      guard peek() == UInt8(ascii: ".") else { return parts }
      index += 1
    }
  }

  /// `[a.b]` or `[[a.b]]`; returns the table that the following pairs go into.
  mutating func header(root: TOMLBuilderTable) throws(TOMLError) -> TOMLBuilderTable {
    let start = position
    index += 1
    let isArray = peek() == UInt8(ascii: "[")
    if isArray { index += 1 }
    let key = try self.key(depth: 0)
    skipWhitespace()
    guard peek() == UInt8(ascii: "]") else {
      throw error("expected '\(isArray ? "]]" : "]")' to close the table header")
    }
    index += 1
    if isArray {
      guard peek() == UInt8(ascii: "]") else { throw error("expected ']]' to close the header") }
      index += 1
    }
    return try root.open(key.map(\.name), array: isArray, at: start, file: file)
  }

  // MARK: - Values

  mutating func value(depth: Int, path: [String]) throws(TOMLError) -> TOMLValue {
    guard depth < Self.maximumDepth else {
      throw error("keys and values nest more than \(Self.maximumDepth) levels deep")
    }
    let start = position
    guard let byte = peek() else { throw error("expected a value, found the end of the file") }
    switch byte {
    case UInt8(ascii: "\""):
      if peek(1) == UInt8(ascii: "\""), peek(2) == UInt8(ascii: "\"") {
        return TOMLValue(.string(try multilineBasicString()), at: start)
      }
      return TOMLValue(.string(try basicString()), at: start)
    case UInt8(ascii: "'"):
      if peek(1) == UInt8(ascii: "'"), peek(2) == UInt8(ascii: "'") {
        return TOMLValue(.string(try multilineLiteralString()), at: start)
      }
      return TOMLValue(.string(try literalString()), at: start)
    case UInt8(ascii: "["):
      return TOMLValue(.array(try array(depth: depth, path: path)), at: start)
    case UInt8(ascii: "{"):
      return TOMLValue(.table(try inlineTable(depth: depth, path: path)), at: start)
    case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "i"), UInt8(ascii: "n"):
      let word = wordAhead()
      if word == "true" || word == "false" {
        index += word.utf8.count
        return TOMLValue(.boolean(word == "true"), at: start)
      }
      if word == "inf" || word == "nan" {
        throw error("floating-point numbers are not supported in this file")
      }
      throw error("expected a value, found '\(word)' (strings need quotes)")
    case UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
      return TOMLValue(.integer(try integer()), at: start)
    case UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "#"):
      throw error("expected a value after '='")
    default:
      guard Self.isWord(byte) else {
        throw error("expected a value" + (characterAhead().map { ", found \($0)" } ?? ""))
      }
      throw error("expected a value, found '\(wordAhead())' (strings need quotes)")
    }
  }

  /// The next character, quoted, or `U+202E` for a control or format character (never shown
  /// raw); nil at a line's end.
  func characterAhead() -> String? {
    guard let byte = peek(), byte != UInt8(ascii: "\n"), byte != UInt8(ascii: "\r") else {
      return nil
    }
    var end = index + 1
    while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end += 1 }
    guard let scalar = String(decoding: bytes[index..<end], as: UTF8.self).unicodeScalars.first
    else { return nil }
    switch scalar.properties.generalCategory {
    case .control, .format, .lineSeparator, .paragraphSeparator, .privateUse, .unassigned:
      let digits = String(scalar.value, radix: 16, uppercase: true)
      return "U+" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    default:
      return "'\(Character(scalar))'"
    }
  }

  /// The run of letters, digits and `_+-.:` from here (not consumed).
  func wordAhead() -> String {
    var end = index
    while end < bytes.count, Self.isWord(bytes[end]) { end += 1 }
    if end == index, index < bytes.count {
      // One character, whole, to say what was found.
      end += 1
      while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end += 1 }
    }
    return String(decoding: bytes[index..<end], as: UTF8.self)
  }

  mutating func integer() throws(TOMLError) -> Int {
    let start = position
    let word = wordAhead()
    index += word.utf8.count
    let text = Array(word.utf8)
    if word.contains(":")
      || (text.count >= 10 && text[4] == UInt8(ascii: "-") && text[7] == UInt8(ascii: "-"))
    {
      throw error("dates and times are not supported in this file", at: start)
    }
    if ["+inf", "-inf", "+nan", "-nan"].contains(word) {
      throw error("floating-point numbers are not supported in this file", at: start)
    }
    var digits = Substring(word)
    var radix = 10
    for (prefix, base) in [("0x", 16), ("0o", 8), ("0b", 2)] where word.hasPrefix(prefix) {
      radix = base
      digits = digits.dropFirst(2)
    }
    if radix == 10, word.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) {
      throw error("floating-point numbers are not supported in this file", at: start)
    }
    var sign = ""
    if radix == 10, let first = digits.first, first == "+" || first == "-" {
      sign = first == "-" ? "-" : ""
      digits = digits.dropFirst()
    }
    // Underscores only between digits; no leading zeros in decimals.
    let parts = digits.split(separator: "_", omittingEmptySubsequences: false)
    guard !digits.isEmpty, parts.allSatisfy({ !$0.isEmpty }),
      radix != 10 || digits == "0" || !digits.hasPrefix("0")
    else { throw error("'\(word)' is not a valid integer", at: start) }
    guard let value = Int(sign + parts.joined(), radix: radix) else {
      let allDigits = parts.joined().allSatisfy {
        $0.isHexDigit && Int(String($0), radix: radix) != nil
      }
      throw error(
        allDigits
          ? "the integer \(word) does not fit in 64 bits" : "'\(word)' is not a valid integer",
        at: start)
    }
    return value
  }

  mutating func array(depth: Int, path: [String]) throws(TOMLError) -> [TOMLValue] {
    let start = position
    index += 1
    var values: [TOMLValue] = []
    while true {
      try skipBlank()
      if peek() == UInt8(ascii: "]") {
        index += 1
        return values
      }
      guard peek() != nil else { throw error("this array has no closing ']'", at: start) }
      values.append(try value(depth: depth + 1, path: path))
      try skipBlank()
      switch peek() {
      case UInt8(ascii: ","):
        index += 1
      case UInt8(ascii: "]"):
        index += 1
        return values
      case nil:
        throw error("this array has no closing ']'", at: start)
      default:
        throw error("expected ',' or ']' after a value in the array")
      }
    }
  }

  mutating func inlineTable(depth: Int, path: [String]) throws(TOMLError) -> TOMLTable {
    index += 1
    let table = TOMLBuilderTable(definition: .inline, position: position, path: path)
    skipWhitespace()
    if peek() == UInt8(ascii: "}") {
      index += 1
      return table.frozen()
    }
    while true {
      skipWhitespace()
      let keyPosition = position
      if peek() == UInt8(ascii: "}") { throw error("an inline table may not end with ','") }
      let key = try self.key(depth: depth + 1)
      skipWhitespace()
      guard peek() == UInt8(ascii: "=") else {
        throw error("expected '=' after the key \(TOMLBuilderTable.display(key.map(\.name)))")
      }
      index += 1
      skipWhitespace()
      let value = try self.value(depth: depth + key.count, path: path + key.map(\.name))
      try table.insert(key, value, at: keyPosition, file: file)
      skipWhitespace()
      switch peek() {
      case UInt8(ascii: ","):
        index += 1
      case UInt8(ascii: "}"):
        index += 1
        return table.frozen()
      case UInt8(ascii: "\n"), UInt8(ascii: "\r"), nil:
        throw error("an inline table must end on the line it starts (expected '}')")
      default:
        throw error("expected ',' or '}' after a value in the inline table")
      }
    }
  }
}
