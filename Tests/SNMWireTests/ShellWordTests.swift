import Testing

@testable import SNMWire

/// A word that holds a character a reader must not be shown raw (a right-to-left override: Trojan
/// Source) is quoted in bash's `$'...'` form with its bytes as `\xHH`; any other as before.
@Suite struct ShellWordTests {
  @Test(arguments: [
    ("plain", "'plain'"), ("it's", #"'it'\''s'"#), ("é — \u{200D}", "'é — \u{200D}'"),
    ("x\u{202E}y", #"$'x\xE2\x80\xAEy'"#), ("it's\u{2066}", #"$'it\'s\xE2\x81\xA6'"#),
    (#"a\b"# + "\u{200B}", #"$'a\\b\xE2\x80\x8B'"#), ("\u{1B}[2J", #"$'\x1B[2J'"#),
  ])
  func quotes(text: String, expected: String) {
    #expect(ShellWord.quoted(text) == expected)
  }

  /// JSON text keeps its value: the hidden characters become `\u` escapes, nothing else changes.
  @Test func jsonTextWritesHiddenCharactersAsEscapes() throws {
    let text = #"{"a\u2066":"x"# + "\u{202E}y\u{200B}é\u{7F}\"}"
    let escaped = VisibleTextLine.escapedJSON(text)
    #expect(escaped == #"{"a\u2066":"x\u202ey\u200bé\u007f"}"#)
    #expect(try JSONValue(parsing: escaped) == JSONValue(parsing: text))
    #expect(VisibleTextLine.escapedJSON(#"{"a":"é"}"#) == #"{"a":"é"}"#)
  }

  @Test func textKeepsItsLineFeeds() {
    let text = VisibleTextLine.escapedKeepingLines("a\u{202E}b\nc\u{1B}\n")
    #expect(text == "a\\u{202E}b\nc\\u{1B}\n")
  }
}
