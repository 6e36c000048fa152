import SNMSupabase

/// What a statement family reads, handed in for each statement: the project, a snapshot of the
/// settings, whether a person is at the prompt, the session, where `\o` sends results. A family
/// never reaches into the executor's state; it returns what changed with its result.
///
/// ```swift
/// let outcome = await PsqlCommand(.setTiming(true)).run(in: executor.statementEnvironment(), output: out)
/// ```
struct StatementEnvironment: Sendable {
  /// The project statements go to.
  let project: ProjectSelection
  /// The settings as they were when the statement started.
  let settings: ShellSettings
  /// Whether statements come from a person at the prompt (notes about settings print then).
  let interactive: Bool
  /// The project's session.
  let sessions: SessionManager
  /// The file `\o` sends results to now (nil: standard output).
  let resultsPath: String?
}
