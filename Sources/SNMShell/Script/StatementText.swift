import SNMQuery

/// A statement's text as scripts print it (`--echo`, failures, interruptions, reports), with a
/// password written in it masked: `login email 'kim@example.com' password '********'`.
///
/// ```swift
/// StatementText.display(statement, in: source)   // the source text, secrets masked
/// ```
/// A password given as `$env.NAME` or a variable shows as written: the name is no secret.
enum StatementText {
  static func display(_ statement: Statement, in source: Source) -> String {
    guard let secret = secretRange(of: statement) else {
      return source.text(of: statement.range)
    }
    let before = source.text(
      of: SourceRange(start: statement.range.start, end: secret.start))
    let after = source.text(of: SourceRange(start: secret.end, end: statement.range.end))
    return before + "'********'" + after
  }

  /// The range of a password written as a string literal, if the statement has one.
  static func secretRange(of statement: Statement) -> SourceRange? {
    switch statement.kind {
    case .session(.login(_, let password?)), .session(.signup(_, let password?)):
      guard case .string = password.value else { return nil }
      return password.range
    default:
      return nil
    }
  }
}
