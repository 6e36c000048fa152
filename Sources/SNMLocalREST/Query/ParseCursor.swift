/// A position in one query parameter, for the hand-written parsers of PostgREST's grammar.
///
/// Works on the UTF-8 bytes (every delimiter of the grammar is ASCII); `current` decodes the
/// scalar at the position. Errors report Parsec's 1-based column in characters, computed only
/// when one is raised: the message names the parameter the way PostgREST does
/// (`"failed to parse filter (noop.0)" (line 1, column 6)`).
struct ParseCursor {
  let bytes: [UInt8]
  /// A byte offset into `bytes`, always at a scalar boundary.
  var position = 0
  /// How many embeds or groups enclose the position.
  var depth = 0
  /// Columns before the text in what PostgREST parses: a logic tree is parsed as `or(...)`
  /// (the key's operator, then the value), so its columns count `or`, `and` or `not.or`.
  var columnOffset = 0
  /// Embeds and `or`/`and` groups nest at most this deep (the parsers recurse).
  static let maximumDepth = 64

  /// Enters one more level of nesting; PGRST100 past `maximumDepth`.
  mutating func enterNesting() throws(RESTError) {
    depth += 1
    guard depth <= ParseCursor.maximumDepth else {
      throw failure(details: "nesting deeper than \(ParseCursor.maximumDepth) levels")
    }
  }

  /// What PostgREST calls the input in its message: `filter`, `select parameter`, `order`.
  let what: StaticString

  init(_ text: String, what: StaticString) {
    self.bytes = Array(text.utf8)
    self.what = what
  }

  /// How PostgREST names the input in its message, e.g. `failed to parse order (x)`; built only
  /// for an error.
  var source: String {
    "failed to parse \(what) (\(String(decoding: bytes, as: UTF8.self)))"
  }

  var isAtEnd: Bool { position >= bytes.count }

  /// Whether only `)` remain. PostgREST's parsers of `select`, filters, `or`/`and` and
  /// `columns` stop at a `)` they do not need and never read what follows, so a stray closing
  /// parenthesis at the end is accepted; other text after it is refused here, where PostgREST
  /// would drop it unread (`select=id),name` reads `id` alone there).
  var isAtEndButClosingParentheses: Bool {
    bytes[position...].allSatisfy { $0 == UInt8(ascii: ")") }
  }

  /// The scalar at the position.
  var current: Unicode.Scalar? { scalar(at: position) }

  /// The scalar `offset` bytes after the position (offsets past ASCII text).
  func peek(_ offset: Int = 0) -> Unicode.Scalar? { scalar(at: position + offset) }

  /// The byte at the position, if any.
  var currentByte: UInt8? { position < bytes.count ? bytes[position] : nil }

  private func scalar(at index: Int) -> Unicode.Scalar? {
    guard index < bytes.count else { return nil }
    let lead = bytes[index]
    if lead < 0x80 { return Unicode.Scalar(lead) }
    var decoder = UTF8()
    var iterator = bytes[index...].makeIterator()
    if case .scalarValue(let scalar) = decoder.decode(&iterator) { return scalar }
    return "\u{FFFD}"
  }

  /// Moves past the scalar at the position.
  mutating func advance() {
    guard position < bytes.count else { return }
    let lead = bytes[position]
    let length =
      lead < 0x80 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1
    position = min(bytes.count, position + length)
  }

  /// Whether the text at the position starts with `literal`.
  func looksAt(_ literal: StaticString) -> Bool {
    let count = literal.utf8CodeUnitCount
    guard position + count <= bytes.count else { return false }
    return literal.withUTF8Buffer { buffer in
      for index in 0..<count where bytes[position + index] != buffer[index] { return false }
      return true
    }
  }

  /// Whether the text at the position starts with `literal`.
  func looksAt(_ literal: String) -> Bool {
    var index = position
    for byte in literal.utf8 {
      guard index < bytes.count, bytes[index] == byte else { return false }
      index += 1
    }
    return true
  }

  /// Consumes `literal` if the text starts with it.
  mutating func consume(_ literal: StaticString) -> Bool {
    guard looksAt(literal) else { return false }
    position += literal.utf8CodeUnitCount
    return true
  }

  /// Consumes `literal` or fails with "expecting".
  mutating func expect(_ literal: StaticString, _ expecting: String? = nil) throws(RESTError) {
    guard consume(literal) else {
      throw failure(expecting: expecting ?? "\"\(literal)\"")
    }
  }

  /// Skips spaces and tabs (PostgREST's `ws`).
  mutating func skipSpace() {
    while position < bytes.count, bytes[position] == 0x20 || bytes[position] == 0x09 {
      position += 1
    }
  }

  /// Moves to the next byte that is one of `stops` (ASCII), or to the end.
  mutating func skip(until stops: UInt8...) {
    while position < bytes.count, !stops.contains(bytes[position]) { position += 1 }
  }

  /// The text from `start` to the position.
  func text(from start: Int) -> String {
    String(decoding: bytes[start..<position], as: UTF8.self)
  }

  /// The rest of the input, consumed.
  mutating func rest() -> String {
    let start = position
    position = bytes.count
    return text(from: start)
  }

  /// A PGRST100 at the position: "unexpected X expecting Y".
  func failure(expecting: String) -> RESTError {
    failure(details: "\(unexpectedDescription) expecting \(expecting)")
  }

  /// A PGRST100 at the position (or at byte `index`) with the given details.
  func failure(details: String, at index: Int? = nil) -> RESTError {
    let offset = min(index ?? position, bytes.count)
    let column =
      String(decoding: bytes[..<offset], as: UTF8.self).unicodeScalars.count + 1 + columnOffset
    return RESTError.queryParse(source: source, column: column, details: details)
  }

  /// Parsec's description of what is at the position.
  var unexpectedDescription: String {
    guard let scalar = current else { return "unexpected end of input" }
    return "unexpected \(RESTError.haskellShow(String(Character(scalar))))"
  }

  /// Parsec's description of what is at the position as `eof` words it: the character as
  /// Haskell shows a `Char` (`'!'`), or the end of input.
  var unexpectedCharacter: String {
    guard let scalar = current else { return "unexpected end of input" }
    switch scalar {
    case "'": return #"unexpected '\''"#
    case "\"": return #"unexpected '"'"#
    default:
      let shown = RESTError.haskellShow(String(Character(scalar)))
      return "unexpected '\(shown.dropFirst().dropLast())'"
    }
  }

  /// Letters, digits, `_`, `$` and space: the characters of an unquoted name.
  static func isIdentifierScalar(_ scalar: Unicode.Scalar) -> Bool {
    let value = scalar.value
    if value < 0x80 {
      return (value >= 0x61 && value <= 0x7A) || (value >= 0x41 && value <= 0x5A)
        || (value >= 0x30 && value <= 0x39) || value == 0x5F || value == 0x24 || value == 0x20
    }
    return scalar.properties.isAlphabetic
  }
}
