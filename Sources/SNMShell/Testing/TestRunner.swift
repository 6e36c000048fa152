import Foundation
import SNMNetwork
import SNMSupabase
import Synchronization

/// `snm test`: runs script files as tests, each with its own variables and session, `jobs` at a
/// time, and prints its target (``RunTarget/line``), PASS/FAIL per file in the order named, then
/// `N passed, M failed`.
///
/// ```swift
/// let configuration = TestRunner.Configuration(paths: ["smoke/"], jobs: 4)
/// let files = try TestFiles.check(configuration, errors: .standardError)   // before a project
/// let code = await TestRunner(project: project, configuration: configuration).run(files)
/// ```
/// Reports (`--report junit|tap|json=PATH`) list files in the order named, so `--jobs 4` writes
/// the same report as `--jobs 1`. SIGINT or SIGTERM stops the files running (each names the
/// statement it stopped at), runs no more, and still prints the summary and writes the reports.
public final class TestRunner: Sendable {
  let project: ProjectSelection
  /// What the first line of the output and every report say the run talks to.
  let target: RunTarget
  let configuration: Configuration
  let output: OutputWriter
  let errors: OutputWriter
  let provider: SNMNetworkProvider
  /// Where SIGINT and SIGTERM come from: `InterruptSignals.shared`, or a test's own source.
  let signals: InterruptSignals
  let running = Mutex(Running())

  struct Running {
    var executors: [Int: StatementExecutor] = [:]
    var tasks: [Int: Task<ScriptResult, Never>] = [:]
    var signal: Int32?
  }

  public init(
    project: ProjectSelection, target: RunTarget? = nil, configuration: Configuration,
    output: OutputWriter = .standardOutput, errors: OutputWriter = .standardError,
    signals: InterruptSignals = .shared
  ) {
    self.project = project
    self.target = target ?? RunTarget(project: project, source: "the caller")
    self.configuration = configuration
    self.output = output
    self.errors = errors
    self.signals = signals
    self.provider = SNMNetworkProvider(
      configuration: configuration.options.networkConfiguration(key: project.key))
  }

  /// What `snm test` was asked: the files and directories, how many at a time, which reports.
  public struct Configuration: Equatable, Sendable {
    /// The options every mode shares (`--url`, `--var`, `--quiet`, ...).
    public var options: ShellOptions
    /// Files and directories, in the order given.
    public var paths: [String]
    /// `--jobs N`: files run at the same time (1: one after another).
    public var jobs: Int
    /// `--report KIND=PATH`, in the order given.
    public var reports: [TestReport]
    /// `--verbose`: every request and answer under each file's line.
    public var verbose = false
    /// `--retry N`: a failed file marked `# snm: idempotent` runs up to N more times.
    public var retries = 0
    /// `--shard K/N`: run only this share of the files (TestRunner+Shard.swift).
    public var shard: TestShard?
    /// `--timings REPORT.json`: an earlier JSON report whose times balance the shards.
    public var timings: String?
    /// `--follow`: symbolic links to folders under a named folder are walked.
    public var follow = false

    public init(
      options: ShellOptions = ShellOptions(), paths: [String], jobs: Int = 1,
      reports: [TestReport] = []
    ) {
      self.options = options
      self.paths = paths
      self.jobs = jobs
      self.reports = reports
    }
  }

  /// Runs every file that checked clean (the others are failed already) and writes the reports;
  /// returns 0 when every file passed, else the highest exit code of a failed file (130/143 when
  /// interrupted; 2 when a report cannot be written).
  public func run(_ files: TestFiles) async -> ExitCode {
    output.write(target.line + "\n")
    output.flush()
    let started = ContinuousClock.now
    let results = await signals.watch(onSignal: { [self] signal in
      stop(signal)
    }) {
      await runAll(files)
    }
    let elapsed = ContinuousClock.now - started
    var code = Self.exitCode(for: results)
    if let signal = running.withLock({ $0.signal }) {
      code = signal == SIGTERM ? .terminated : .interrupted
    }
    return printer.finish(
      results, seconds: Self.seconds(elapsed), notRun: (files.refused, 0), summary: true,
      code: code)
  }

  /// A run none of whose files checked clean: each file's refusal, the summary and the reports
  /// (which name no target: none was chosen); returns the highest exit code (2; 130 or 143 when
  /// a signal stopped the wait for a file).
  ///
  /// With `unreached` (the error that left the run without a project, as written, and its exit
  /// code; the caller has said it once on standard error) the refused files are still shown
  /// with their diagnostics, but a file that checked clean gets no `FAIL` of its own repeating
  /// that error: the summary counts it (`1 file not run: no project`, not among the failed),
  /// and the reports record it as an error carrying the project's error. With no file refused
  /// nothing is printed on standard output: the error is the whole answer.
  public static func reportWithoutRunning(
    _ files: TestFiles, configuration: Configuration, output: OutputWriter = .standardOutput,
    errors: OutputWriter = .standardError, unreached: (text: String, code: ExitCode)? = nil
  ) -> ExitCode {
    let printer = TestOutput(
      configuration: configuration, output: output, errors: errors, target: nil)
    var results: [ScriptResult] = []
    for (path, checked) in zip(files.paths, files.checks) {
      if let result = checked.result(path) {
        printer.printProgress(result)
        results.append(result)
      } else {
        results.append(unreached.map { noProject(path, $0.text, $0.code) } ?? .notRun(path))
      }
    }
    return printer.finish(
      results, seconds: files.seconds, notRun: (files.refused, unreached == nil ? 0 : files.ready),
      summary: unreached == nil || files.refused > 0, code: exitCode(for: results))
  }

  /// The result of the file at `path`, which checked clean, in a run left without a project by
  /// the error `text` (exit code `code`).
  static func noProject(_ path: String, _ text: String, _ code: ExitCode) -> ScriptResult {
    let message = text.split(separator: "\n").first.map(String.init) ?? ""
    let failure = ScriptFailure(
      kind: .error, location: path, statement: "", message: message, text: text)
    return ScriptResult(path: path, exitCode: code, failures: [failure])
  }

  /// What the run prints and writes.
  var printer: TestOutput {
    TestOutput(configuration: configuration, output: output, errors: errors, target: target)
  }

  /// 0 when every file passed, else the highest exit code of the files that did not.
  static func exitCode(for results: [ScriptResult]) -> ExitCode {
    results.filter { !$0.passed && !$0.skipped }.map(\.exitCode)
      .max { $0.rawValue < $1.rawValue } ?? .success
  }

  /// Runs the files `configuration.jobs` at a time; results come back in file order.
  func runAll(_ checked: TestFiles) async -> [ScriptResult] {
    let files = checked.paths
    var results: [ScriptResult?] = Array(repeating: nil, count: files.count)
    var printed = 0
    await withTaskGroup(of: (Int, ScriptResult).self) { group in
      var next = 0
      func startNext() {
        guard next < files.count, running.withLock({ $0.signal == nil }) else { return }
        let index = next
        next += 1
        let task = Task { await runFile(files[index], index: index, checked.checks[index]) }
        running.withLock { $0.tasks[index] = task }
        group.addTask { (index, await task.value) }
      }
      for _ in 0..<min(configuration.jobs, files.count) { startNext() }
      while let (index, result) = await group.next() {
        running.withLock { _ = $0.tasks.removeValue(forKey: index) }
        results[index] = result
        while printed < files.count, let done = results[printed] {
          printer.printProgress(done)
          printed += 1
        }
        startNext()
      }
    }
    return zip(files, results).map { file, result in result ?? .notRun(file) }
  }

  /// Runs one file (a file refused by its check is its result), and again (up to `--retry`
  /// times) while it fails when it is marked idempotent. The file (and each it runs) is read
  /// once, its text run again: a FIFO has no second reading to give.
  func runFile(_ path: String, index: Int, _ checked: TestFiles.Checked) async -> ScriptResult {
    guard case .ready(let check, let loader) = checked else {
      return checked.result(path) ?? .notRun(path)
    }
    var result = await runFileOnce(path, index: index, loader: loader, check: check)
    guard configuration.retries > 0, let source = loader.loaded(path), Self.isIdempotent(source)
    else { return result }
    while !result.passed && result.attempts <= configuration.retries
      && [.failure, .unreachable, .relay].contains(result.exitCode)
      && running.withLock({ $0.signal == nil })
    {
      let attempts = result.attempts + 1
      result = await runFileOnce(path, index: index, loader: loader, check: check)
      result.attempts = attempts
    }
    return result
  }

  /// Runs one file in a fresh executor and runner: its own variables, its own (signed-out)
  /// session; its text from `loader`, checked already (`check`).
  func runFileOnce(_ path: String, index: Int, loader: ScriptLoader, check: ScriptCheck?) async
    -> ScriptResult
  {
    let out = OutputWriter()
    let err = OutputWriter()
    let directory = NSTemporaryDirectory() + "snm-test-" + UUID().uuidString
    defer { try? FileManager.default.removeItem(atPath: directory) }
    // A folder of the file's own for what it writes (`$env.SNM_TEST_TMPDIR`), made 0700 and
    // removed, with all in it, when the file ends, as its session is.
    let scratch = directory + "/tmp"
    if let reason = FileIO.makeDirectory(scratch) {
      let text = "snm test: cannot make the file's folder (\(Self.scratchVariable)): \(reason)\n"
      let failure = ScriptFailure(
        kind: .error, location: VisibleText.escaped(path), statement: "",
        message: VisibleText.escaped(String(text.dropLast())), text: VisibleText.escaped(text))
      return ScriptResult(path: path, exitCode: .failure, failures: [failure])
    }
    var environment = ProcessEnvironment.current
    environment[Self.scratchVariable] = scratch
    var options = configuration.options
    options.noColor = true
    let executor = StatementExecutor.isolated(
      project: project, options: options, provider: provider, sessionDirectory: directory,
      output: out, errors: err, signals: signals, environment: environment)
    let signal = running.withLock { running in
      running.executors[index] = executor
      return running.signal
    }
    if let signal { executor.interrupt(signal) }
    let started = ContinuousClock.now
    var runner = ScriptRunner(executor: executor, loader: loader)
    let trace = RequestTrace(keep: configuration.verbose ? nil : Self.tracedOnFailure)
    let code = await RequestTrace.$current.withValue(trace) {
      await runner.run(file: path, checked: check)
    }
    let seconds = Self.seconds(ContinuousClock.now - started)
    running.withLock { _ = $0.executors.removeValue(forKey: index) }
    var (failures, statements, expectations) = runner.summary
    if code != .success && failures.isEmpty {
      let text = executor.secretValues.mask(err.captured)
      failures.append(
        ScriptFailure(
          kind: .error, location: VisibleText.escaped(path), statement: "",
          message: "exit code \(code.rawValue)", text: text))
    }
    var result = ScriptResult(
      path: path, exitCode: code, failures: failures, statements: statements,
      expectations: expectations, seconds: seconds,
      output: executor.secretValues.mask(out.captured))
    if configuration.verbose || code != .success {
      result.trace = trace.lines().map(executor.secretValues.mask)
    }
    return result
  }

  /// The environment variable naming the folder each file is given for what it writes
  /// (`'${env.SNM_TEST_TMPDIR}/out.csv'`), made before it runs and removed after, as bats gives
  /// `BATS_TEST_TMPDIR`: scratch files left in /tmp by every run pile up.
  public static let scratchVariable = "SNM_TEST_TMPDIR"

  /// The exchanges a failing file's report keeps (all of them with `--verbose`).
  static let tracedOnFailure = 6

  /// A signal: every file running stops at its statement; no more files start.
  func stop(_ signal: Int32) {
    let (executors, tasks) = running.withLock { running in
      running.signal = running.signal ?? signal
      return (Array(running.executors.values), Array(running.tasks.values))
    }
    for executor in executors { executor.interrupt(signal) }
    for task in tasks { task.cancel() }
  }

  static func seconds(_ duration: Duration) -> Double {
    let parts = duration.components
    return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
  }
}
