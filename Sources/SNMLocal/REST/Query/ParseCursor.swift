/// A position in one query parameter, for the hand-written parsers of PostgREST's grammar.
///
/// Positions count Unicode scalars, as Parsec counts characters, so `column` in an error is
/// `position + 1`. Failures throw PGRST100 whose message names the parameter the way PostgREST
/// does (`"failed to parse filter (noop.0)" (line 1, column 6)`).
struct ParseCursor {
  let scalars: [Unicode.Scalar]
  var position = 0
  /// How PostgREST names the input in its message, e.g. `failed to parse order (x)`.
  let source: String

  init(_ text: String, source: String) {
    self.scalars = Array(text.unicodeScalars)
    self.source = source
  }

  var isAtEnd: Bool { position >= scalars.count }
  var current: Unicode.Scalar? { position < scalars.count ? scalars[position] : nil }

  func peek(_ offset: Int = 0) -> Unicode.Scalar? {
    let index = position + offset
    return index < scalars.count ? scalars[index] : nil
  }

  /// Whether the text at the position starts with `literal`.
  func looksAt(_ literal: String) -> Bool {
    var index = position
    for scalar in literal.unicodeScalars {
      guard index < scalars.count, scalars[index] == scalar else { return false }
      index += 1
    }
    return true
  }

  /// Consumes `literal` if the text starts with it.
  mutating func consume(_ literal: String) -> Bool {
    guard looksAt(literal) else { return false }
    position += literal.unicodeScalars.count
    return true
  }

  /// Consumes `literal` or fails with "expecting".
  mutating func expect(_ literal: String, _ expecting: String? = nil) throws(RESTError) {
    guard consume(literal) else {
      throw failure(expecting: expecting ?? "\"\(literal)\"")
    }
  }

  /// Skips spaces and tabs (PostgREST's `ws`).
  mutating func skipSpace() {
    while let scalar = current, scalar == " " || scalar == "\t" { position += 1 }
  }

  /// The text from `start` to the position.
  func text(from start: Int) -> String {
    var out = String.UnicodeScalarView()
    out.append(contentsOf: scalars[start..<position])
    return String(out)
  }

  /// The rest of the input, consumed.
  mutating func rest() -> String {
    let start = position
    position = scalars.count
    return text(from: start)
  }

  /// A PGRST100 at the position: "unexpected X expecting Y".
  func failure(expecting: String) -> RESTError {
    failure(details: "\(unexpectedDescription) expecting \(expecting)")
  }

  /// A PGRST100 at the position with the given details.
  func failure(details: String, at index: Int? = nil) -> RESTError {
    RESTError.queryParse(source: source, column: (index ?? position) + 1, details: details)
  }

  /// Parsec's description of what is at the position.
  var unexpectedDescription: String {
    guard let scalar = current else { return "unexpected end of input" }
    return "unexpected \(RESTError.haskellShow(String(Character(scalar))))"
  }

  /// Letters, digits, `_`, `$` and space: the characters of an unquoted name.
  static func isIdentifierScalar(_ scalar: Unicode.Scalar) -> Bool {
    if scalar == "_" || scalar == "$" || scalar == " " { return true }
    if ("0"..."9").contains(scalar) { return true }
    return scalar.properties.isAlphabetic
  }
}
