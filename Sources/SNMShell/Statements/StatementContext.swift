/// What the runner of a statement tells the executor about where it runs: the answers earlier
/// statements got (for `expect`), the folder its local files are relative to, and where its
/// output goes (``StatementRouting``).
///
/// ```swift
/// let context = StatementContext(last: state.last, previous: state.previous, directory: "smoke")
/// let result = await executor.runExpect(expect, in: source, context: context)
/// ```
struct StatementContext: Sendable {
  /// The last statement that sent a request (or signed in): what `expect rows|status` read.
  var last: StatementOutcome?
  /// The statement before this one (nil before the first): what `expect error` reads.
  var previous: StatementOutcome?
  /// The folder of the script file the statement is in (nil: the working directory), for
  /// Storage's local files.
  var directory: String?
  /// Where its output goes and whether it runs `as service`.
  var routing = StatementRouting()
}
