import Foundation
import SNMNetwork
import SNMWire
import Testing

@testable import SNMShell

/// What a statement leaves for `expect`, counted without parsing the rows.
@Suite struct StatementOutcomeTests {
  @Test func rowsAreCountedWithoutBuildingTheTree() throws {
    let document = try JSONDocument(validating: Data(#"[{"id":1},{"id":2},{"id":3}]"#.utf8))
    let outcome = StatementOutcome.answered(document: document, status: 200)
    #expect(outcome.rowCount == 3)
    #expect(!document.isParsed)
    #expect(outcome.value == [["id": 1], ["id": 2], ["id": 3]])
    #expect(document.isParsed)
  }

  @Test func countsMatchWhatTheValueGives() throws {
    let bodies: [(String, String?, Int)] = [
      ("[]", nil, 0), (#"{"id":1}"#, nil, 1), ("7", nil, 1), ("null", "*/4", 4),
      (#"[1,[2,3],{"a":[4]}]"#, nil, 3),
    ]
    for (body, range, rows) in bodies {
      let document = try JSONDocument(validating: Data(body.utf8))
      let lazy = StatementOutcome.answered(document: document, status: 200, contentRange: range)
      let eager = StatementOutcome.answered(
        value: try JSONValue(parsing: body), status: 200, contentRange: range)
      #expect(lazy.rowCount == rows, "\(body)")
      #expect(lazy == eager, "\(body)")
    }
  }
}
