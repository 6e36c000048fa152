extension StatementExecutor {
  /// What a statement family reads: a snapshot taken now (Statements/StatementEnvironment.swift).
  func statementEnvironment() async -> StatementEnvironment {
    let variables = await variableScope()
    let (settings, interactive, resultsPath, signedIn) = state.withLock {
      ($0.settings, $0.interactive, $0.resultsFile?.path, $0.signedIn)
    }
    return StatementEnvironment(
      project: project, settings: settings, interactive: interactive, sessions: sessions,
      resultsPath: resultsPath, variables: variables, signedIn: signedIn, catalog: catalog,
      secrets: secretValues, sender: sender,
      connection: StatementConnection(
        provider: provider, serviceProvider: serviceProvider, auth: auth,
        asService: Self.runningAsService))
  }

  /// Sends the statements' requests so that a signal cancels the one in flight.
  var sender: StatementSender {
    StatementSender(signals: signals, sessions: sessions, interruption: { [self] in interruption })
  }

  /// The writers a statement family prints to, as they are for the statement running now.
  var statementOutput: StatementOutput {
    StatementOutput(
      results: output, terminal: baseOutput, errors: errors, quiet: currentSettings.quiet,
      followsCSV: { [self] writer in followsCSV(writer) })
  }

  /// Notes that a CSV result goes to `writer` now; whether the last one went there too.
  func followsCSV(_ writer: OutputWriter) -> Bool {
    let destination = ObjectIdentifier(writer)
    return state.withLock { state in
      defer { state.lastCSVOutput = destination }
      return state.lastCSVOutput == destination
    }
  }

  /// Runs a psql habit (Psql/) and keeps what it changed: the settings, where results go.
  func run(_ command: PsqlCommand) async -> StatementResult {
    let outcome = await command.run(in: await statementEnvironment(), output: statementOutput)
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
