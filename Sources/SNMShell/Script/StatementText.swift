import SNMQuery

/// A statement's text as scripts print it (`--echo`, failures, interruptions, reports), with a
/// password written in it masked: `login email 'kim@example.com' password '********'`.
///
/// ```swift
/// StatementText.display(statement, in: source)   // the source text, secrets masked
/// ```
/// A password given as `$env.NAME` or a variable shows as written: the name is no secret. What
/// counts as a password is ``SecretMask``'s rule, the same as for diagnostics.
enum StatementText {
  static func display(_ statement: Statement, in source: Source) -> String {
    SecretMask.text(of: statement.range, in: source)
  }
}
