import SNMQuery

extension StatementExecutor {
  /// What a statement family reads: a snapshot taken now (Statements/StatementEnvironment.swift),
  /// its requests sent `as service` when `routing` says so.
  func statementEnvironment(_ routing: StatementRouting = StatementRouting()) async
    -> StatementEnvironment
  {
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
        asService: routing.asService))
  }

  /// The environment and output a family is made with for a statement routed by `routing`.
  func surroundings(_ routing: StatementRouting) async -> (StatementEnvironment, StatementOutput) {
    (await statementEnvironment(routing), statementOutput(routing))
  }

  /// The variables a statement may use: `--var`/`let` values, the environment, `$session`.
  /// `$session` is kept up to date inside `variables`, so the scope shares their storage instead
  /// of copying every bound value for each statement.
  func variableScope() async -> VariableScope {
    let session = await sessionValues()
    let values = state.withLock { state in
      if state.variables["session"] != session { state.variables["session"] = session }
      return state.variables
    }
    return VariableScope(values: values, environment: environment)
  }

  /// Sends the statements' requests so that a signal cancels the one in flight.
  var sender: StatementSender {
    StatementSender(signals: signals, sessions: sessions, interruption: { [self] in interruption })
  }

  /// The writers a statement prints to: results to `routing`'s, else to the file of `\o`, else
  /// standard output; errors to `routing`'s, else standard error.
  func statementOutput(_ routing: StatementRouting = StatementRouting()) -> StatementOutput {
    StatementOutput(
      results: routing.results ?? state.withLock { $0.resultsFile?.writer } ?? baseOutput,
      terminal: baseOutput, errors: routing.errors ?? baseErrors, quiet: currentSettings.quiet,
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

  /// Runs a query or an `rpc` (``RequestStatements``), `storage ...` (``StorageStatements``),
  /// `invoke ...` and `request ...` (``FunctionsStatements``): compile, send (Ctrl-C cancels),
  /// print the result or the error. A signal returns `.interrupted`: whoever runs the statement
  /// says what that means.
  func runRequest<Family: RequestFamily>(
    _ family: Family.Type, _ statement: Statement, in source: Source, context: StatementContext
  ) async -> StatementResult {
    let (environment, output) = await surroundings(context.routing)
    return await Family(environment: environment, output: output)
      .run(statement, in: source, directory: context.directory)
  }

  /// Runs a Realtime statement (Realtime/) and binds `$event` to the event `expect event` took.
  func runRealtime(_ statement: RealtimeStatement, context: StatementContext) async
    -> StatementResult
  {
    let (environment, output) = await surroundings(context.routing)
    let family = RealtimeStatements(environment: environment, output: output, session: realtime)
    let result = await family.run(statement)
    if case .expectEvent = statement, case .succeeded(let outcome?) = result {
      bind("event", to: outcome.value)
    }
    return result
  }

  /// Runs an account, MFA, admin or inbox statement (Auth/) and keeps who is signed in after it.
  func runAuth(_ statement: Statement, in source: Source, context: StatementContext) async
    -> StatementResult
  {
    let (environment, output) = await surroundings(context.routing)
    let family = AuthStatements(environment: environment, output: output)
    let (result, signedIn) = await family.run(statement, in: source)
    keep(signedIn)
    return result
  }

  /// Runs `help`, `tables`, `describe`, `explain` (``ShellStatements``), the settings, `\o`,
  /// `\conninfo` and `\?` (``PsqlCommand``), `exit` (and their psql aliases). `exit` only
  /// succeeds: the runner ends the run after it.
  func runShellStatement(_ command: ShellStatement, in source: Source, context: StatementContext)
    async -> StatementResult
  {
    switch command {
    case .setFormat, .setTiming, .setPager, .setOnError, .setExpanded, .toggleExpanded, .setNull,
      .setTimezone, .connectionInfo, .output, .backslashHelp:
      return await run(PsqlCommand(command), routing: context.routing)
    case .edit, .watch:
      // They run statements again, which the script runner does (ScriptRunner+EditAndWatch).
      return statementOutput(context.routing).fail(
        .usage, "\(command == .edit ? "\\e" : "\\watch") runs only in a script or at the prompt")
    case .exit:
      return .succeeded(nil)
    case .help, .tables, .describe, .explain:
      let (environment, output) = await surroundings(context.routing)
      let family = ShellStatements(environment: environment, output: output)
      return await family.run(command, in: source, directory: context.directory)
    }
  }

  /// Runs a psql habit (Psql/) and keeps what it changed: the settings, where results go.
  func run(_ command: PsqlCommand, routing: StatementRouting = StatementRouting()) async
    -> StatementResult
  {
    let outcome = await command.run(
      in: await statementEnvironment(routing), output: statementOutput(routing))
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
