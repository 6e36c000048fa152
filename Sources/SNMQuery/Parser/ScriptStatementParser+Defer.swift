/// `defer <statement>` (AST/DeferStatement.swift).
extension ScriptStatementParser {
  static func parseDefer(_ parser: inout Parser) throws(ParseFailure) -> DeferStatement {
    let keyword = parser.advance()  // defer
    parser.recordKeywords(["from", "rpc", "storage", "echo", "logout"])
    if parser.current.kind.isStatementEnd {
      throw parser.expectedFailure(
        "a statement to run when the file ends", after: "'defer'",
        help: "for example: defer from dog_profile delete where id eq $dog.id")
    }
    let inner = try parser.parseStatement()
    switch inner.kind {
    case .deferred, .let, .expect, .run:
      throw parser.failure(
        .deferNotAllowed(Self.firstWord(of: inner)), at: inner.range,
        help: "defer a query, an rpc, a Storage statement, echo or logout")
    case .shell(let shell) where !Self.deferrable(shell):
      throw parser.failure(
        .deferNotAllowed(Self.firstWord(of: inner)), at: inner.range.union(keyword.range),
        help: "defer a query, an rpc, a Storage statement, echo or logout")
    default:
      return DeferStatement(statement: inner)
    }
  }

  static func deferrable(_ shell: ShellStatement) -> Bool {
    if case .explain = shell { return true }
    return false
  }

  static func firstWord(of statement: Statement) -> String {
    switch statement.kind {
    case .let: "let"
    case .expect: "expect"
    case .run: "run"
    case .deferred: "defer"
    default: "this statement"
    }
  }
}
