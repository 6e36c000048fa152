import SNMTestSupport
import Testing

@testable import SNMQuery

/// A malformed input, where each of its errors must be reported (`line:col id`), and its rendering in
/// Fixtures/Diagnostics/<name>.txt (`RECORD_SNAPSHOTS=1` re-records).
struct DiagnosticCase: Sendable, CustomTestStringConvertible {
  var name: String
  var input: String
  var expected: [String]
  var testDescription: String { name }
  init(_ name: String, _ input: String, _ expected: [String]) {
    self.name = name
    self.input = input
    self.expected = expected
  }
}

@Suite struct DiagnosticGoldenTests {
  static let cases: [DiagnosticCase] = [
    DiagnosticCase("misspelled-action", "from user_info selec *", ["1:16 expected"]),
    DiagnosticCase("missing-value", "from user_info select * where age gte", ["1:38 expected"]),
    DiagnosticCase(
      "unknown-operator", "from user_info select * where a eqq 1", ["1:33 unknown-operator"]),
    DiagnosticCase("eq-null", "from user_info select * where deleted_at eq null", ["1:42 eq-null"]),
    DiagnosticCase(
      "neq-null", "from user_info select * where deleted_at != null", ["1:42 eq-null"]),
    DiagnosticCase(
      "update-without-where", #"from user_info update {"name": "Lee"}"#, ["1:16 unfiltered-write"]),
    DiagnosticCase("delete-without-where", "from user_info delete", ["1:16 unfiltered-write"]),
    DiagnosticCase("sql-word-order", "select * from user_info", ["1:1 query-starts-with-from"]),
    DiagnosticCase("unknown-statement", "fomr user_info select *", ["1:1 unknown-statement"]),
    DiagnosticCase("unclosed-paren", "from t select * where (a eq 1 or b eq 2", ["1:40 unclosed"]),
    DiagnosticCase(
      "unterminated-string", "from t select * where name eq 'Kim", ["1:31 unterminated-string"]),
    DiagnosticCase("unquoted-hangul", "from t select 이름, age", ["1:15 unquoted-name"]),
    DiagnosticCase("bad-escape", #"from t select * where a eq "x\q""#, ["1:30 invalid-escape"]),
    DiagnosticCase(
      "bare-word-value", "from t select * where status eq active", ["1:33 bare-word-value"]),
    DiagnosticCase(
      "bare-email-value", "from user_info select * where name eq alice@example.com",
      ["1:39 bare-word-value"]),
    DiagnosticCase(
      "where-after-limit", "from t select * limit 3 where a eq 1", ["1:25 where-after-modifiers"]),
    DiagnosticCase("duplicate-limit", "from t select * limit 1 limit 2", ["1:25 duplicate-clause"]),
    DiagnosticCase(
      "single-and-maybe-single", "from t select * single maybe single", ["1:24 conflicting-single"]),
    DiagnosticCase("insert-string", "from t insert 'Kim'", ["1:15 body-kind"]),
    DiagnosticCase("update-array", #"from t update [{"a": 1}] where id eq 1"#, ["1:15 body-kind"]),
    DiagnosticCase("in-with-array", "from t select * where id in [1, 2]", ["1:29 operand-kind"]),
    DiagnosticCase(
      "like-any-string", "from t select * where name like any '%a%'", ["1:37 operand-kind"]),
    DiagnosticCase(
      "undefined-variable", "from t select * where id eq $dog.id", ["1:29 undefined-variable"]),
    DiagnosticCase(
      "use-before-let", "expect $n == 1\nlet n = 1\nexpect $m == $n",
      [
        "1:8 undefined-variable", "3:8 undefined-variable",
      ]),
    DiagnosticCase("malformed-number", "from t select * limit 01", ["1:23 malformed-number"]),
    DiagnosticCase("negative-limit", "from t select * limit -1", ["1:23 not-a-count"]),
    DiagnosticCase("count-typo", "from t select * count exactly", ["1:23 expected"]),
    DiagnosticCase("backslash-cut-short", "\\wat", ["1:1 unknown-command"]),
    DiagnosticCase(
      "continued-psql-style", "from user_info select *\nwhere age > 3",
      ["2:1 unknown-statement"]),
    DiagnosticCase("watch-zero", "\\watch 0", ["1:8 expected"]),
    DiagnosticCase("pset-unknown", "\\pset border 2", ["1:7 expected"]),
    DiagnosticCase("select-without-columns", "from t select where a eq 1", ["1:15 empty-select"]),
    DiagnosticCase("is-number", "from t select * where a is 3", ["1:28 invalid-is-value"]),
    DiagnosticCase(
      "neq-any", "from t select * where a neq any [1]", ["1:29 quantifier-not-allowed"]),
    DiagnosticCase("set-format-typo", "set format tabel", ["1:12 expected"]),
    DiagnosticCase("unknown-backslash", "\\dx", ["1:1 unknown-command"]),
    DiagnosticCase("explain-session", "explain login", ["1:9 explain-not-a-request"]),
    DiagnosticCase(
      "three-errors",
      "from t selec *\nfrom t select * where a eqq 1\nfrom t delete\nfrom t select *",
      [
        "1:8 expected", "2:25 unknown-operator", "3:8 unfiltered-write",
      ]),
    DiagnosticCase(
      "tab-and-wide-characters", "\tfrom \"이름🐶\" select * where a eqq 1", ["1:30 unknown-operator"]),
    DiagnosticCase(
      "where-all-on-select", "from t select * where all", ["1:17 where-all-not-allowed"]),
    DiagnosticCase("all-with-limit", "from t select * limit 5 all", ["1:23 all-with-clause"]),
    DiagnosticCase(
      "returning-on-select", "from t select id returning id", ["1:18 clause-not-allowed"]),
    DiagnosticCase("rpc-array-arguments", "rpc fn [1, 2]", ["1:8 body-kind"]),
    DiagnosticCase(
      "recovery-inside-braces", "from t insert {\"a\": 1,\nfrom t select *\nfrom u selec *",
      [
        "2:1 expected", "3:8 expected",
      ]),
    DiagnosticCase("expect-without-comparison", "let x = 1\nexpect $x 3", ["2:11 expected"]),
    DiagnosticCase("duplicate-key", #"from t insert {"a": 1, "a": 2}"#, ["1:24 duplicate-key"]),
    DiagnosticCase("trailing-word", "from t select * foo", ["1:17 unexpected-token"]),
    DiagnosticCase("logout-with-argument", "logout now", ["1:8 expected"]),
    DiagnosticCase("let-builtin", "let env = 1", ["1:5 builtin-variable"]),
    DiagnosticCase("login-email-missing", "login email", ["1:12 expected"]),
    DiagnosticCase("from-without-table", "from", ["1:5 expected"]),
    DiagnosticCase(
      "insert-with-where", #"from t insert {"a": 1} where a eq 1"#, ["1:30 where-not-allowed"]),
    DiagnosticCase(
      "multi-line-missing-value", "from t\\\n  select *\\\n  where age >", ["3:14 expected"]),
    DiagnosticCase("value-in-name-position", "from 't' select *", ["1:6 expected"]),
    DiagnosticCase(
      "vertical-form-before-error", "from t select * where a eq '︙' and b eqq 1",
      ["1:38 unknown-operator"]),
  ]

  /// Lines holding a password: it prints as '********', the caret under the line as printed.
  static let passwordCases: [DiagnosticCase] = [
    DiagnosticCase(
      "password-before-error", "login email 'kim@example.com' password 'hunter2' extra",
      ["1:50 unexpected-token"]),
    DiagnosticCase(
      "password-unterminated", "signup email 'kim@example.com' password 'hunter2",
      ["1:41 unterminated-string"]),
    DiagnosticCase(
      "password-tab-and-wide-characters",
      "\tlogin email '김@example.com' password \"비밀번호🐶\" extra", ["1:47 unexpected-token"]),
    DiagnosticCase(
      "password-without-keyword", "login email 'kim@example.com' 'hunter2'",
      ["1:31 unexpected-token"]),
    DiagnosticCase(
      "password-misspelled-keyword", "login email 'kim@example.com' pasword 'hunter2'",
      ["1:31 unexpected-token"]),
    DiagnosticCase(
      "password-continued-line", "login email 'kim@example.com' \\\n  password 'hunter2' now",
      ["2:22 unexpected-token"]),
  ]

  @Test(arguments: cases + passwordCases)
  func diagnostics(_ testCase: DiagnosticCase) {
    var script = Parser.parse(testCase.input, fileName: "\(testCase.name).snm")
    Checker.check(&script)
    let reported = script.diagnostics.map { diagnostic in
      "\(script.source.location(of: diagnostic.range.start)) \(diagnostic.message.id)"
    }
    #expect(reported == testCase.expected)
    let rendered = DiagnosticRenderer().render(script.diagnostics, in: script.source)
    expectSnapshot(rendered, named: "Diagnostics/\(testCase.name).txt")
  }

  @Test(arguments: passwordCases)
  func passwordsNeverPrint(_ testCase: DiagnosticCase) {
    var script = Parser.parse(testCase.input, fileName: "\(testCase.name).snm")
    Checker.check(&script)
    let rendered = DiagnosticRenderer(colored: true).render(script.diagnostics, in: script.source)
    #expect(!script.diagnostics.isEmpty)
    #expect(!rendered.contains("hunter2") && !rendered.contains("비밀번호"))
    #expect(rendered.contains("'********'"))
  }

  @Test func enoughCases() {
    #expect(Self.cases.count >= 25)
  }
}
