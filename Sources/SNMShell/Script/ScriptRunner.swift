import Foundation
import SNMNetwork
import SNMQuery
import SNMWire

/// Runs statements as a script does (`-c`, script files, standard input, `run`, and each line
/// at the prompt), one at a time through its executor, and owns what the run keeps between
/// them (``ScriptState``): the answers `expect` reads, the failures, the exit code.
///
/// ```swift
/// var runner = ScriptRunner(executor: executor)
/// let code = await runner.run(file: "smoke/pair.snm")
/// runner.summary.failures        // what went wrong, in order
/// ```
/// A failure stops the rest unless `on_error` is `continue`; nothing here throws.
public struct ScriptRunner {
  /// Runs each statement; shared with whoever else runs statements of the session.
  public let executor: StatementExecutor
  /// What the run keeps between statements.
  var state = ScriptState()
  /// A line for standard error once the first script file has been checked and is about to run
  /// (`snm FILE`'s target, ``RunTarget/line``); a file refused by its check sends nothing and
  /// prints no target.
  public var announcement: String?

  /// A runner for the statements of `executor`'s session, with nothing run yet; `loader` holds
  /// the script files read so far (another runner's, to run the same text again).
  public init(executor: StatementExecutor, loader: ScriptLoader = ScriptLoader()) {
    self.executor = executor
    state.loader = loader
  }

  /// The exit code of the run so far: the first failure's, else success.
  public var exitCode: ExitCode { state.failure ?? .success }

  /// What the scripts run so far left: failures, statements run, expectations that held.
  public var summary: (failures: [ScriptFailure], statements: Int, expectations: Int) {
    (state.failures, state.statements, state.expectations)
  }

  /// Runs `text` (one or more statements) as a script named `name` (`-c`, a file name).
  /// Stops at the first failure unless `on_error` is `continue`.
  public mutating func run(text: String, name: String) async -> ExitCode {
    _ = await execute(text, source: name)
    return exitCode
  }

  /// Runs statements checked before (``EarlyCheck``: `-c`'s, once the check found no error)
  /// without checking them again.
  public mutating func run(checked check: ScriptCheck) async -> ExitCode {
    _ = await runStatements(check.script.statements, in: check.script.source, complete: true)
    return exitCode
  }

  /// Runs script files in order with the same variables and session, each one checked (with the
  /// files it runs) before anything is sent, or checked before with the others (`checked`: one
  /// ``EarlyCheck`` check per file, none with errors); a failed file stops the rest unless
  /// `on_error` is `continue`.
  public mutating func run(files: [String], checked: [ScriptCheck]? = nil) async -> ExitCode {
    for (index, file) in files.enumerated() {
      let code = await run(file: file, checked: checked?[index])
      if code == .interrupted || code == .terminated { return code }
      if code != .success && executor.currentSettings.onError == .stop { return code }
    }
    return exitCode
  }

  /// Records a failure of the run; the first one decides the exit code, and its exchange stays in
  /// the trace whatever is sent after it (``RequestTrace/markFailure()``).
  mutating func fail(_ code: ExitCode) {
    if state.failure == nil { RequestTrace.current?.markFailure() }
    state.failure = state.failure ?? code
  }

  /// Runs one statement through the executor, telling it what the run knows (the answers so far,
  /// the script's folder, where its output goes); `run file`, `\e` and `\watch` run here. Counts the expectations that
  /// held. Afterwards it is the last statement, which `\e` edits and `\watch` runs again.
  mutating func run(
    _ statement: Statement, in source: Source, routing: StatementRouting = StatementRouting()
  ) async -> StatementResult {
    switch statement.kind {
    case .shell(.edit), .shell(.watch):
      return await dispatch(statement, in: source, routing: routing)
    default: break
    }
    defer { state.lastStatement = (statement, source) }
    switch statement.kind {
    case .run, .deferred, .expect(.within):
      return await dispatch(statement, in: source, routing: routing)
    default: break
    }
    let started = ContinuousClock.now
    var result = await dispatch(statement, in: source, routing: routing)
    if Checker.sendsRequest(statement) {
      result.timed(ContinuousClock.now - started)
      state.lastRequest = ScriptState.Frame(source: source, statement: statement)
      executor.bindLast(result.outcome)
    }
    if case .expect = statement.kind, result.succeeded { state.expectations += 1 }
    if case .shell(.exit) = statement.kind { state.exitRequested = true }
    return result
  }

  /// The folder a statement's local files are relative to: the script's own (as `run`), else
  /// the working directory (nil).
  func directory(of source: Source) -> String? {
    guard state.files.contains(source.fileName) else { return nil }
    return Self.folder(ofScript: source.fileName)
  }

  /// The folder part of a script file's name as it was given (`tests` of `tests/a.snm`, `/` of
  /// `/a.snm`), nil for a bare name (the working directory): what a statement's local files and
  /// its `run`'s file are relative to (``ScriptLoader/resolve(_:from:)``), and what `snm check`
  /// resolves a file a script writes with (``WrittenFiles``).
  static func folder(ofScript fileName: String) -> String? {
    // A byte search: `lastIndex(of: "/")` walked the path a Character at a time, every statement.
    guard let slash = fileName.utf8.lastIndex(of: UInt8(ascii: "/")) else { return nil }
    // A script at `/`: its folder is `/`, not "" (the working directory's, which `run` did not use).
    if slash == fileName.utf8.startIndex { return "/" }
    return String(fileName[..<slash])
  }
}
