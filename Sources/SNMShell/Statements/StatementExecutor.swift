import Foundation
import SNMNetwork
import SNMQuery
import SNMSupabase
import SNMWire
import Synchronization

/// Runs one snm statement at a time and returns what happened (``StatementResult``); whoever
/// runs it (``ScriptRunner``, ``PromptLoop``) decides what that means for the run. The runner's
/// ``ScriptRunner/dispatch(_:in:)`` is the one switch on a statement's kind; it calls the
/// families here (`runRequest` for queries, Storage and Functions, `runAuth`, `runSession`, ...).
///
/// ```swift
/// let executor = StatementExecutor(project: project, options: options)
/// var runner = ScriptRunner(executor: executor)
/// let code = await runner.run(text: "from user_info select *", name: "-c")
/// ```
/// It keeps what statements share across a session: settings, variables, the session, the
/// schema catalog. Statements print their own output and errors; nothing here throws.
public final class StatementExecutor: Sendable {
  /// The project statements go to.
  public let project: ProjectSelection
  /// Standard output as given: results go here unless `\o FILE` sends them to a file or the
  /// statement's ``StatementRouting`` holds them.
  let baseOutput: OutputWriter
  /// Standard error as given: errors go here unless the statement's ``StatementRouting`` holds
  /// them (a script statement's, until the runner reports them with its location).
  let baseErrors: OutputWriter
  /// The signal that stopped the scripts (0: none), set from the signal watcher.
  let stopSignal = Atomic<Int32>(0)
  /// The project's session (`SessionManager.shared` in the snm binary, configured by main.swift).
  let sessions: SessionManager
  /// Signs in, up and out for the session statements.
  let auth: any AuthManageable
  /// What the session changes as it goes (settings, `\o`'s file, who is signed in, variables),
  /// under one lock.
  let state: Mutex<ShellState>
  /// Sends the statements' requests (connections kept alive).
  let provider: SNMNetworkProvider
  /// Sends the requests of `admin ...`, `inbox` and `as service` with the service key; nil when
  /// the project has none.
  let serviceProvider: SNMNetworkProvider?
  /// Table, column and function names for completion, `tables` and `describe`.
  public let catalog: SchemaCatalog
  /// Where SIGINT and SIGTERM come from: `InterruptSignals.shared`, or a test's own source.
  let signals: InterruptSignals
  /// Passwords and secret environment values that script failures and reports never print.
  let secretValues: SecretValues
  /// The process environment for `$env`, read once rather than built anew for every statement.
  let environment: [String: String]
  /// The Realtime socket and subscriptions (Realtime/), opened by the first statement needing it.
  let realtime = RealtimeSession()

  /// A shell for `project` with the command line's settings; `environment` is what `$env`
  /// reads (the process's when nil).
  public init(
    project: ProjectSelection, options: ShellOptions,
    output: OutputWriter = .standardOutput, errors: OutputWriter = .standardError,
    sessions: SessionManager = .shared, auth: (any AuthManageable)? = nil,
    provider: SNMNetworkProvider? = nil, catalog: SchemaCatalog = SchemaCatalog(),
    signals: InterruptSignals = .shared, environment: [String: String]? = nil
  ) {
    self.project = project
    self.signals = signals
    self.provider =
      provider
      ?? SNMNetworkProvider(configuration: options.networkConfiguration(key: project.key))
    self.serviceProvider = project.serviceKey.map {
      SNMNetworkProvider(configuration: options.networkConfiguration(key: $0))
    }
    self.catalog = catalog
    // One copy of the environment for both (ProcessInfo builds a new dictionary at each read).
    let environment = environment ?? ProcessEnvironment.current
    self.environment = environment
    self.secretValues = SecretValues(environment: environment)
    self.sessions = sessions
    self.auth = auth ?? SupabaseAuthManager(config: project.supabaseConfig, provider: self.provider)
    self.baseOutput = output
    self.baseErrors = errors
    let colour = Terminal.usesColour(fd: STDOUT_FILENO, disabled: options.noColor)
    self.state = Mutex(
      ShellState(
        settings: ShellSettings(options: options, colour: colour),
        variables: options.variableValues, variableNames: Set(options.variableValues.keys)))
    if let serviceKey = project.serviceKey { secretValues.register(serviceKey) }
  }

  /// The current settings.
  public var currentSettings: ShellSettings { state.withLock { $0.settings } }

  /// Whether statements come from a person at the prompt (they never stop the session).
  var interactive: Bool {
    get { state.withLock { $0.interactive } }
    set { state.withLock { $0.interactive = newValue } }
  }

  /// Called from the signal watcher: the scripts stop at the statement running now.
  public func interrupt(_ signal: Int32) {
    _ = stopSignal.compareExchange(expected: 0, desired: signal, ordering: .relaxed)
  }

  /// SIGINT or SIGTERM, once one has stopped the scripts.
  var interruption: Int32? {
    let signal = stopSignal.load(ordering: .relaxed)
    return signal == 0 ? nil : signal
  }

  /// Prints `message` as an error line on standard error: `snm: message`.
  /// Control characters in it (it may quote a server) are escaped (``VisibleText``).
  func report(_ message: String) {
    statementOutput().report(message)
  }

  /// The names bound by `--var` and `let`, for completion and the checker (`session`, kept
  /// among them by `variableScope()`, is built in and left out).
  public func variableNames() -> [String] {
    state.withLock { $0.variables.keys.filter { $0 != "session" } }
  }

  /// The names bound by `--var` and `let`, as the checker takes them.
  func boundNames() -> Set<String> {
    state.withLock { $0.variableNames }
  }

  /// Binds `$name` to `value` (`let`).
  func bind(_ name: String, to value: JSONValue) {
    state.withLock { state in
      state.variables[name] = value
      state.variableNames.insert(name)
    }
  }

  /// Prepares loading the project's schema (for completion), started on its first need
  /// (``SchemaCatalog/loadIfNotStarted(else:)``); loads nothing now.
  public func prepareSchemaLoading(
    cache: SchemaCache? = SchemaCache(directory: SchemaCache.defaultDirectory())
  ) {
    let storage = SupabaseStorageManager(
      config: project.supabaseConfig, provider: provider,
      accessToken: { [sessions] in try await sessions.requestToken() })
    catalog.prepareLoading(provider: provider, project: project, storage: storage, cache: cache)
  }
}
