import SNMNetwork
import SNMQuery
import Testing

@testable import SNMShell

/// One `expect` against a last result, and what it should say.
struct ExpectationCase: Sendable, CustomTestStringConvertible {
  var statement: String
  var last: StatementOutcome?
  var previous: StatementOutcome?
  /// nil: it holds; else the expected and found texts.
  var failure: (expected: String, found: String)?

  init(
    _ statement: String, last: StatementOutcome? = nil, previous: StatementOutcome? = nil,
    fails failure: (String, String)? = nil
  ) {
    self.statement = statement
    self.last = last
    self.previous = previous ?? last
    self.failure = failure
  }

  var testDescription: String { statement }
}

let twoRows = StatementOutcome.answered(
  value: [["id": 1, "name": "Bori"], ["id": 2, "name": "Choco"]], status: 200)
let oneObject = StatementOutcome.answered(value: ["id": 1, "name": "Bori"], status: 200)
let inserted = StatementOutcome.answered(value: .null, status: 201, contentRange: "*/1")
let updatedThree = StatementOutcome.answered(value: .null, status: 204, contentRange: "0-2/*")
let duplicate = StatementOutcome.failed(
  code: "23505", message: "duplicate key value violates unique constraint \"mate_pkey\"",
  status: 409)

@Suite struct ExpectationTests {
  static let cases: [ExpectationCase] = [
    .init("expect rows 2", last: twoRows),
    .init("expect rows = 2", last: twoRows),
    .init("expect rows >= 1", last: twoRows),
    .init("expect rows 1", last: oneObject),
    .init("expect rows 1", last: inserted),
    .init("expect rows 3", last: updatedThree),
    .init("expect rows 1", last: twoRows, fails: ("1 row", "2 rows")),
    .init("expect rows > 2", last: twoRows, fails: ("> 2 rows", "2 rows")),
    .init("expect rows != 2", last: twoRows, fails: ("not 2 rows", "2 rows")),
    .init(
      "expect rows 0", last: nil,
      fails: ("0 rows", "no result: no query or rpc ran before this 'expect'")),
    .init(
      "expect rows 1", last: duplicate,
      fails: (
        "1 row",
        "error 23505 (HTTP 409): duplicate key value violates unique constraint \"mate_pkey\""
      )),
    .init("expect status 200", last: twoRows),
    .init("expect status < 300", last: inserted),
    .init("expect status 409", last: duplicate),
    .init("expect status 201", last: twoRows, fails: ("201", "success (HTTP 200)")),
    .init("expect error", last: twoRows, previous: duplicate),
    .init("expect error 23505", previous: duplicate),
    .init("expect error '23505'", previous: duplicate),
    .init(
      "expect error 42501", previous: duplicate,
      fails: (
        "error 42501",
        "error 23505 (HTTP 409): duplicate key value violates unique constraint \"mate_pkey\""
      )),
    .init("expect error", previous: inserted, fails: ("an error", "success (HTTP 201)")),
    .init(
      "expect error", previous: nil, fails: ("an error", "no statement before this 'expect error'")
    ),
    .init("expect $rows[1].name == 'Choco'"),
    .init("expect $rows[0].id == 1.0"),
    .init("expect $rows[0].id == '1'"),
    .init("expect $rows[0].name != 'Choco'"),
    .init("expect $rows[0].name == 'Choco'", fails: ("\"Choco\"", "\"Bori\"")),
    .init("expect $rows[0].id == '1x'", fails: ("\"1x\"", "1")),
    .init("expect $rows[0] == {\"name\": \"Bori\", \"id\": 1}"),
    .init("expect $rows[0] contains {\"name\": \"Bori\"}"),
    .init("expect $rows contains {\"id\": 2, \"name\": \"Choco\"}"),
    .init("expect $rows[0].name contains 'or'"),
    .init(
      "expect $rows[0].name contains 'x'", fails: ("a value containing \"x\"", "\"Bori\"")),
    .init("expect $rows[0].name matches '^B.r'"),
    .init("expect $rows[0].name matches '^b'", fails: ("text matching /^b/", "\"Bori\"")),
    .init("expect $rows[0].id < 2"),
    .init("expect $rows[1].id >= 2"),
    .init("expect $rows[1].id > 10", fails: ("> 10", "2")),
    .init("expect '2026-01-02' < '2026-01-10'"),
    .init("expect $rows[0] > 1", fails: ("> 1", "{\"id\":1,\"name\":\"Bori\"}")),
    .init("expect $nothing == null"),
    .init("expect $nothing != 'null'"),
    .init("expect [1, 2, 3] contains [3, 1]"),
    .init("expect 12345678901234567890 == 12345678901234567890"),
    .init("expect 12345678901234567890 != 12345678901234567891"),
  ]

  @Test(arguments: cases) func verdict(_ item: ExpectationCase) throws {
    let verdict = try evaluate(item.statement, last: item.last, previous: item.previous)
    if let failure = item.failure {
      #expect(verdict == .failed(expected: failure.expected, found: failure.found))
    } else {
      #expect(verdict == .held)
    }
  }

  @Test func aBadPatternIsADiagnosticAtThePattern() {
    #expect {
      try evaluate("expect 'x' matches '('", last: nil, previous: nil)
    } throws: { error in
      (error as? Diagnostic)?.message.id == "bad-pattern"
        && (error as? Diagnostic)?.range == SourceRange(start: 19, end: 22)
    }
  }

  @Test func aMissingFieldIsADiagnosticWithAHint() {
    #expect {
      try evaluate("expect $rows[0].nme == 1", last: nil, previous: nil)
    } throws: { error in
      (error as? Diagnostic)?.message.id == "missing-field"
        && (error as? Diagnostic)?.help == "did you mean '$rows[0].name'?"
    }
  }

  @Test func aVariableThatHoldsNoCountIsTheCheckersDiagnostic() {
    // One message for the id, as `snm check` words it for a literal (`limit -1`).
    #expect {
      try evaluate("expect rows $nothing", last: twoRows, previous: twoRows)
    } throws: { error in
      (error as? Diagnostic)?.message
        == DiagnosticMessage(
          id: "not-a-count", "'expect rows' takes a whole number of at least 0, found null")
        && (error as? Diagnostic)?.range == SourceRange(start: 12, end: 20)
    }
  }

  func evaluate(_ text: String, last: StatementOutcome?, previous: StatementOutcome?) throws
    -> ExpectationCheck.Verdict
  {
    let script = Parser.parse(Source(text: text, fileName: "t.snm"))
    guard case .expect(let statement)? = script.statements.first?.kind else {
      Issue.record("not an expect: \(script.diagnostics)")
      return .held
    }
    let scope = VariableScope(values: ["rows": twoRows.value, "nothing": .null])
    return try ExpectationCheck(statement: statement, last: last, previous: previous)
      .evaluate(in: scope)
  }
}
