extension StatementExecutor {
  /// What a statement family reads: a snapshot taken now (Statements/StatementEnvironment.swift).
  func statementEnvironment() -> StatementEnvironment {
    StatementEnvironment(
      project: project, settings: currentSettings, interactive: interactive, sessions: sessions,
      resultsPath: state.withLock { $0.resultsFile?.path })
  }

  /// The writers a statement family prints to, as they are for the statement running now.
  var statementOutput: StatementOutput {
    StatementOutput(
      results: output, terminal: baseOutput, errors: errors, quiet: currentSettings.quiet)
  }

  /// Runs a psql habit (Psql/) and keeps what it changed: the settings, where results go.
  func run(_ command: PsqlCommand) async -> StatementResult {
    let outcome = await command.run(in: statementEnvironment(), output: statementOutput)
    if let changed = outcome.settings { state.withLock { $0.settings = changed } }
    if let target = outcome.results {
      let replacing: ResultsFile? =
        switch target {
        case .standardOutput: nil
        case .file(let file): file
        }
      let previous = state.withLock { state in
        defer { state.resultsFile = replacing }
        return state.resultsFile
      }
      previous?.close()
    }
    return outcome.result
  }
}
