/// Where the runner sends a statement's output, and how it sends the statement's requests:
/// handed down with each statement as a parameter (``StatementContext/routing``), never kept in
/// a task-local, so what a statement prints to is in its call.
///
/// ```swift
/// let held = OutputWriter()
/// let result = await runner.run(statement, in: source, routing: StatementRouting(errors: held))
/// ```
struct StatementRouting: Sendable {
  /// Results go here instead of standard output or `\o`'s file (`expect ... within` drops the
  /// output of the request it sends again); nil: there.
  var results: OutputWriter?
  /// Errors go here instead of standard error: the script runner holds a statement's error output
  /// until it knows whether `expect error` forgives it; nil: standard error.
  var errors: OutputWriter?
  /// The statement runs `as service`: its DB and Storage requests go with the service key and no
  /// session.
  var asService = false
}
