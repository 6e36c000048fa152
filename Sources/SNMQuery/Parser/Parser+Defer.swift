/// `defer <statement>` (AST/DeferStatement.swift).
extension Parser {
  mutating func parseDefer() throws(ParseFailure) -> DeferStatement {
    let keyword = advance()  // defer
    recordKeywords(["from", "rpc", "storage", "echo", "logout"])
    if current.kind.isStatementEnd {
      throw expectedFailure(
        "a statement to run when the file ends", after: "'defer'",
        help: "for example: defer from dog_profile delete where id eq $dog.id")
    }
    let inner = try parseStatement()
    switch inner.kind {
    case .deferred, .let, .expect, .run:
      throw failure(
        .deferNotAllowed(Parser.firstWord(of: inner)), at: inner.range,
        help: "defer a query, an rpc, a Storage statement, echo or logout")
    case .shell(let shell) where !Parser.deferrable(shell):
      throw failure(
        .deferNotAllowed(Parser.firstWord(of: inner)), at: inner.range.union(keyword.range),
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
