@testable import SNMQuery

/// Parses and checks `text`; returns the canonical text of each statement and the diagnostics' ids.
func parseAndCheck(_ text: String, variables: Set<String> = []) -> (
  statements: [String], errors: [String]
) {
  var script = Parser.parse(text, fileName: "test.snm")
  Checker.check(&script, variables: variables)
  return (script.statements.map(\.canonicalText), script.diagnostics.map(\.message.id))
}

/// The one statement `text` holds, or nil when it has errors.
func statement(_ text: String) -> Statement? {
  let script = Parser.parse(text)
  guard script.diagnostics.isEmpty, script.statements.count == 1 else { return nil }
  return script.statements[0]
}

/// The canonical text of the one statement `text` holds, or the rendered diagnostics.
func canonical(_ text: String, variables: Set<String> = testVariables) -> String {
  var script = Parser.parse(text, fileName: "test.snm")
  Checker.check(&script, variables: variables)
  if !script.diagnostics.isEmpty {
    return DiagnosticRenderer().render(script.diagnostics, in: script.source)
  }
  return script.statements.map(\.canonicalText).joined(separator: "\n")
}

/// The `where` tree of a query, for structural checks.
func condition(_ text: String) -> Condition? {
  guard case .query(let query) = statement(text)?.kind, case .condition(let tree) = query.filter
  else {
    return nil
  }
  return tree
}

/// Variables the table-driven tests treat as bound.
let testVariables: Set<String> = ["me", "dog", "tag", "rows", "n", "dogs", "x"]
