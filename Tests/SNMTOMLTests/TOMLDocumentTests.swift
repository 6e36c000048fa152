import SNMTestSupport
import Testing

@testable import SNMTOML

/// The shape of config.toml as the Supabase CLI writes it, and what TOML allows around it.
@Test func readsTheSupabaseConfigShape() throws {
  let text = """
    # A comment line
    project_id = "demo"   # after a value

    [api]
    enabled = true
    port = 54_321
    schemas = ["public", "graphql_public",]
    extra_search_path = [
      "public",   # the first
      "extensions"
    ]
    max_rows = 1000

    [auth.email]
    enable_confirmations = false

    [auth.sms.test_otp]
    4152127777 = "123456"

    [storage.buckets.images]
    public = false
    allowed_mime_types = ["image/png", 'image/jpeg']

    [functions.hello-world]
    verify_jwt = false
    import_map = './functions/hello-world/deno.json'

    [[tests]]
    name = "one"
    [[tests]]
    name = "two"
    inline = { a = 1, b.c = "x" }
    """
  let document = try TOMLDocument(parsing: text, file: "config.toml")
  let root = document.root
  #expect(root.keys == ["project_id", "api", "auth", "storage", "functions", "tests"])
  #expect(root["project_id"]?.string == "demo")
  let api = try #require(root["api"]?.table)
  #expect(api["port"]?.integer == 54321)
  #expect(api["port"]?.position == TOMLPosition(line: 6, column: 8))
  #expect(api["schemas"]?.array?.compactMap(\.string) == ["public", "graphql_public"])
  #expect(api["extra_search_path"]?.array?.compactMap(\.string) == ["public", "extensions"])
  #expect(root["auth"]?.table?["email"]?.table?["enable_confirmations"]?.boolean == false)
  #expect(root["auth"]?.table?["sms"]?.table?["test_otp"]?.table?["4152127777"]?.string == "123456")
  let images = try #require(root["storage"]?.table?["buckets"]?.table?["images"]?.table)
  #expect(images["allowed_mime_types"]?.array?.compactMap(\.string) == ["image/png", "image/jpeg"])
  let function = try #require(root["functions"]?.table?["hello-world"]?.table)
  #expect(function["import_map"]?.string == "./functions/hello-world/deno.json")
  #expect(root["functions"]?.table?["hello-world"]?.position == TOMLPosition(line: 24, column: 1))
  let tests = try #require(root["tests"]?.array)
  #expect(tests.compactMap { $0.table?["name"]?.string } == ["one", "two"])
  #expect(tests.last?.table?["inline"]?.table?["b"]?.table?["c"]?.string == "x")
}

@Test func stringsTakeTOMLsEscapesAndForms() throws {
  let text = #"""
    basic = "tab\there \"quoted\" \\ \u00e9 \U0001F600"
    literal = 'C:\path\no escapes'
    multi = """
    one
    two \
        joined"""
    quotes = """a ""quoted"" end"""""
    raw = '''
    first
    'second' ''\'''
    "quoted key" = 1
    'literal key' = 2
    """#
  let root = try TOMLDocument(parsing: text, file: "t.toml").root
  #expect(root["basic"]?.string == "tab\there \"quoted\" \\ é 😀")
  #expect(root["literal"]?.string == #"C:\path\no escapes"#)
  #expect(root["multi"]?.string == "one\ntwo joined")
  #expect(root["quotes"]?.string == #"a ""quoted"" end"""#)
  #expect(root["raw"]?.string == "first\n'second' ''\\")
  #expect(root["quoted key"]?.integer == 1)
  #expect(root["literal key"]?.integer == 2)
}

@Test func integersInEveryBaseAndSign() throws {
  let text =
    "a = +17\nb = -0\nc = 0xDEAD_beef\nd = 0o755\ne = 0b1010\nf = 9_223_372_036_854_775_807\n"
  let root = try TOMLDocument(parsing: text, file: "t.toml").root
  #expect(root["a"]?.integer == 17)
  #expect(root["b"]?.integer == 0)
  #expect(root["c"]?.integer == 0xDEAD_BEEF)
  #expect(root["d"]?.integer == 0o755)
  #expect(root["e"]?.integer == 10)
  #expect(root["f"]?.integer == Int.max)
}

@Test func crlfLinesAndAByteOrderMarkAreRead() throws {
  let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("a = 1\r\n[t]\r\nb = \"x\"\r\n".utf8)
  let root = try TOMLDocument(bytes: bytes, file: "t.toml").root
  #expect(root["a"]?.integer == 1)
  #expect(root["t"]?.table?["b"]?.string == "x")
  #expect(root["t"]?.position == TOMLPosition(line: 2, column: 1))
}

struct Refusal: Sendable, CustomStringConvertible {
  var name: String
  var text: String
  /// `line:column: message` as printed after the file name.
  var error: String
  var description: String { name }
}

/// Malformed and hostile files: each is refused with the place and a message that says why.
let refusals: [Refusal] = [
  Refusal(name: "missing equals", text: "a 1", error: "1:3: expected '=' after the key a"),
  Refusal(name: "no value", text: "a =\n", error: "1:4: expected a value after '='"),
  Refusal(
    name: "bare word value", text: "[api]\nport = fast",
    error: "2:8: expected a value, found 'fast' (strings need quotes)"),
  Refusal(
    name: "duplicate key", text: "a = 1\nb = 2\na = 3",
    error: "3:1: the key a is given twice (first at 1:5)"),
  Refusal(
    name: "table twice", text: "[api]\nport = 1\n\n[api]",
    error: "4:1: [api]: the table is already defined (at 1:1)"),
  Refusal(
    name: "header into dotted table", text: "a.b = 1\n[a]",
    error: "2:1: [a]: the table is already defined by dotted keys (at 1:1)"),
  Refusal(
    name: "dotted into a header table", text: "[x.a.b]\n[x.a]\nb.c = 1",
    error: "3:1: the table x.a.b is already defined (at 1:1); dotted keys cannot add to it"),
  Refusal(
    name: "header through a value", text: "a = 1\n[a.b]",
    error: "2:1: [a.b]: a is a value (at 1:5), not a table"),
  Refusal(
    name: "inline table is closed", text: "a = { b = 1 }\n[a.c]",
    error: "2:1: [a.c]: a is a value (at 1:5), not a table"),
  Refusal(
    name: "array of tables as table", text: "[[a]]\n[a]",
    error: "2:1: [a]: a is an array of tables (at 1:1); use [[...]]"),
  Refusal(
    name: "two values on a line", text: "a = 1 b = 2", error: "1:7: expected the end of the line"),
  Refusal(
    name: "unclosed header", text: "[api\nport = 1",
    error: "1:5: expected ']' to close the table header"),
  Refusal(
    name: "unterminated string", text: "a = \"abc\nb = 1",
    error: "1:5: this string does not end on its line (expected '\"')"),
  Refusal(
    name: "unterminated multi-line string", text: "a = \"\"\"abc\n",
    error: "1:5: this string has no closing '\"\"\"'"),
  Refusal(
    name: "unknown escape", text: #"a = "\q""#, error: #"1:6: unknown escape '\q' in a string"#),
  Refusal(
    name: "surrogate escape", text: #"a = "\uD800""#,
    error: #"1:6: '\u' needs 4 hex digits of a unicode scalar value"#),
  Refusal(
    name: "control character in a string", text: "a = \"x\u{1B}[31m\"",
    error: "1:7: a string may not hold the control character U+001B (write an escape)"),
  Refusal(
    name: "control character in a comment", text: "# a\u{7F}\n",
    error: "1:4: a comment may not hold the control character U+007F"),
  Refusal(
    name: "lone carriage return", text: "a = 1\rb = 2",
    error: "1:6: a carriage return without a newline"),
  Refusal(
    name: "float", text: "a = 1.5",
    error: "1:5: floating-point numbers are not supported in this file"),
  Refusal(
    name: "exponent", text: "a = 1e3",
    error: "1:5: floating-point numbers are not supported in this file"),
  Refusal(
    name: "infinity", text: "a = inf",
    error: "1:5: floating-point numbers are not supported in this file"),
  Refusal(
    name: "date", text: "a = 1979-05-27",
    error: "1:5: dates and times are not supported in this file"),
  Refusal(name: "leading zero", text: "a = 0123", error: "1:5: '0123' is not a valid integer"),
  Refusal(name: "double underscore", text: "a = 1__0", error: "1:5: '1__0' is not a valid integer"),
  Refusal(
    name: "too large", text: "a = 99999999999999999999",
    error: "1:5: the integer 99999999999999999999 does not fit in 64 bits"),
  Refusal(
    name: "unclosed array", text: "a = [1, 2", error: "1:5: this array has no closing ']'"),
  Refusal(
    name: "array without comma", text: "a = [1 2]",
    error: "1:8: expected ',' or ']' after a value in the array"),
  Refusal(
    name: "inline table over lines", text: "a = { b = 1,\n c = 2 }",
    error: "1:13: expected a key"),
  Refusal(
    name: "inline table trailing comma", text: "a = { b = 1, }",
    error: "1:14: an inline table may not end with ','"),
  Refusal(
    name: "inline table duplicate", text: "a = { b = 1, b = 2 }",
    error: "1:14: the key a.b is given twice (first at 1:11)"),
  Refusal(
    name: "escape character value is not shown raw", text: "a = \u{1B}[2J",
    error: "1:5: expected a value, found U+001B"),
  Refusal(
    name: "format character is escaped", text: "\u{202E} = 1",
    error: "1:1: expected a key, found U+202E"),
  Refusal(name: "empty key", text: "= 1", error: "1:1: expected a key, found '='"),
  Refusal(
    name: "multi-line key", text: "\"\"\"k\"\"\" = 1",
    error: "1:1: a key may not be a multi-line string"),
  Refusal(
    name: "escaped control key is not shown raw", text: "\"a\\u001B\" = 1\n\"a\\u001B\" = 2",
    error: "2:1: the key \"a\\u001B\" is given twice (first at 1:13)"),
  Refusal(
    name: "a format character in a quoted key is shown as TOML escapes it",
    text: "\"pay\u{202E}gpj.exe\" = 1\n\"pay\\u202Egpj.exe\" = 2",
    error: "2:1: the key \"pay\\u202Egpj.exe\" is given twice (first at 1:17)"),
  Refusal(
    name: "a C1 control and a tag character in a table name are shown as TOML escapes them",
    text: "[\"a\u{9B}31m\u{E0041}\"]\nk = 1\n[\"a\u{9B}31m\u{E0041}\"]",
    error: "3:1: [\"a\\u009B31m\\U000E0041\"]: the table is already defined (at 1:1)"),
  Refusal(
    name: "columns count characters", text: "é = 1",
    error: "1:1: expected a key, found 'é'"),
  Refusal(
    name: "deep arrays", text: "a = " + String(repeating: "[", count: 10_000),
    error: "1:104: keys and values nest more than 100 levels deep"),
  Refusal(
    name: "deep inline tables", text: "a = " + String(repeating: "{b=", count: 10_000),
    error: "1:300: keys and values nest more than 100 levels deep"),
  Refusal(
    name: "long dotted key",
    text: Array(repeating: "k", count: 200).joined(separator: ".") + " = 1",
    error: "1:201: keys and values nest more than 100 levels deep"),
]

@Test(arguments: refusals)
func malformedFilesAreRefusedWithTheirPlace(_ refusal: Refusal) {
  do {
    let document = try TOMLDocument(parsing: refusal.text, file: "supabase/config.toml")
    Issue.record("read as \(document.root.keys)")
  } catch {
    #expect(error.description == "supabase/config.toml:" + refusal.error)
  }
}

@Test func bytesThatAreNotUTF8AreRefusedWithTheirLine() {
  let bytes = Array("a = 1\nb = \"".utf8) + [0xC3, 0x28] + Array("\"\n".utf8)
  #expect(
    throws: TOMLError(file: "f", at: TOMLPosition(line: 2, column: 6), "the file is not UTF-8 text")
  ) {
    try TOMLDocument(bytes: bytes, file: "f")
  }
  #expect(throws: TOMLError.self) { try TOMLDocument(bytes: [0x61, 0x3D, 0xFF], file: "f") }
}

/// Random bytes and random cuts of a valid file never crash the reader: each is read or refused.
@Test func randomInputIsReadOrRefusedNeverCrashes() {
  var generator = SeededGenerator(seed: 42)
  let valid = Array(
    """
    [api]
    port = 54321
    schemas = ["public", { a = "b\\n" }, [1, [2]]]
    [[x.y]]
    'k' = '''v'''
    "q\\u00e9" = true
    """.utf8)
  let alphabet = Array("[]{}=,.\"'#\\ \n\tab01_-+ux".utf8)
  for round in 0..<4_000 {
    var bytes: [UInt8]
    if round % 2 == 0 {
      bytes = Array(valid.prefix(Int(generator.next() % UInt64(valid.count + 1))))
      if !bytes.isEmpty {
        bytes[Int(generator.next() % UInt64(bytes.count))] =
          alphabet[Int(generator.next() % UInt64(alphabet.count))]
      }
    } else {
      bytes = (0..<Int(generator.next() % 64)).map { _ in
        alphabet[Int(generator.next() % UInt64(alphabet.count))]
      }
    }
    _ = try? TOMLDocument(bytes: bytes, file: "f")
  }
}
