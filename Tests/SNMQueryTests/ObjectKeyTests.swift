import Testing

@testable import SNMQuery

/// An object's keys, compared as the parser reads them (`ObjectKeys`: plain ASCII keys by their
/// bytes, others as Strings): a key is written twice exactly when its String is one written
/// before in its object (`String`'s `==`), in a run's parse and in `snm check`'s alike.
@Suite struct ObjectKeyTests {
  struct KeyCase: Sendable, CustomTestStringConvertible {
    var name: String
    var object: String
    /// The key reported written twice, or nil when the object is fine.
    var duplicate: String?
    var testDescription: String { name }
  }

  static let cases: [KeyCase] = [
    KeyCase(name: "the same plain key", object: #"{"a": 1, "a": 2}"#, duplicate: "a"),
    KeyCase(name: "two plain keys", object: #"{"a": 1, "b": 2}"#, duplicate: nil),
    KeyCase(name: "an escape of the same key", object: #"{"a": 1, "\u0061": 2}"#, duplicate: "a"),
    KeyCase(name: "either quote", object: #"{'a': 1, "a": 2}"#, duplicate: "a"),
    KeyCase(name: "a quote doubled", object: #"{'it''s': 1, "it's": 2}"#, duplicate: "it's"),
    KeyCase(name: "the Kelvin sign is K", object: "{\"K\": 1, \"\u{212A}\": 2}", duplicate: "K"),
    KeyCase(name: "an escaped Kelvin sign", object: #"{"K": 1, "\u212A": 2}"#, duplicate: "K"),
    KeyCase(
      name: "é composed and decomposed", object: "{\"\u{E9}\": 1, \"e\u{301}\": 2}",
      duplicate: "\u{E9}"),
    KeyCase(
      name: "16 bytes", object: #"{"0123456789abcdef": 1, "0123456789abcdef": 2}"#,
      duplicate: "0123456789abcdef"),
    KeyCase(
      name: "16 bytes, the last differs",
      object: #"{"0123456789abcdef": 1, "0123456789abcdeg": 2}"#,
      duplicate: nil),
    KeyCase(
      name: "17 bytes", object: #"{"0123456789abcdefg": 1, "0123456789abcdefg": 2}"#,
      duplicate: "0123456789abcdefg"),
    KeyCase(name: "empty keys", object: #"{"": 1, "": 2}"#, duplicate: ""),
    KeyCase(name: "a space more", object: #"{"ab": 1, "ab ": 2}"#, duplicate: nil),
    KeyCase(
      name: "an inner object's own keys", object: #"{"a": {"a": 1}, "b": 2}"#, duplicate: nil),
    KeyCase(
      name: "a key after an inner object", object: #"{"a": {"b": 1}, "a": 2}"#, duplicate: "a"),
    KeyCase(name: "twice in an inner object", object: #"{"a": {"b": 1, "b": 2}}"#, duplicate: "b"),
    KeyCase(
      name: "the 21st is the 4th", object: Self.keys(0..<20, then: #""k3""#), duplicate: "k3"),
    KeyCase(
      name: "the 21st, escaped, is the 6th", object: Self.keys(0..<20, then: #""\u006b5""#),
      duplicate: "k5"),
    KeyCase(
      name: "the 16th is the 2nd", object: Self.keys(0..<15, then: #""k1""#), duplicate: "k1"),
    KeyCase(
      name: "the 17th is the 16th", object: Self.keys(0..<16, then: #""k15""#), duplicate: "k15"),
    KeyCase(name: "21 keys", object: Self.keys(0..<20, then: #""k20""#), duplicate: nil),
  ]

  /// `{"k0": 0, ...}` for `range`, then the key `last`.
  static func keys(_ range: Range<Int>, then last: String) -> String {
    "{" + range.map { "\"k\($0)\": \($0), " }.joined() + last + ": 0}"
  }

  @Test(arguments: cases) func aKeyIsWrittenTwiceWhenItsStringIs(_ key: KeyCase) {
    let expected = key.duplicate.map { [DiagnosticMessage.duplicateKey($0).text] } ?? []
    // Last in its source (the keys within 16 bytes of its end), and with text after it.
    for text in ["from t insert \(key.object)", "from t insert \(key.object)\nfrom t delete"] {
      let source = Source(text: text)
      let parsed = Parser.parse(source).diagnostics.map(\.message.text)
      var checking = CheckingParser(source)
      while checking.nextStatement() != nil {}
      let checked = checking.parseDiagnostics.map(\.message.text)
      #expect(parsed == expected, "\(text)")
      #expect(checked == expected, "\(text)")
    }
  }
}
