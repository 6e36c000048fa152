import Foundation
import SNMSupabase
import SNMWire

/// The files of a `snm test` run, each read and checked (``EarlyCheck``, as `snm FILE` checks
/// its scripts) before a project is chosen: a file that does not parse or check, or cannot be
/// read, is a failed test with where and why, and when no file is left to run no project is
/// chosen, started or reached (``TestRunner/reportWithoutRunning(_:configuration:output:errors:)``).
/// `snm test --local bad.snm` started the local project first, and waited on its start, to say
/// that line 1 did not parse.
///
/// ```swift
/// let files = try TestFiles.check(configuration, errors: .standardError)
/// guard files.anyToRun else { return TestRunner.reportWithoutRunning(files, ...) }  // 2
/// let code = await TestRunner(project: project, configuration: configuration).run(files)
/// ```
/// Each file's text (and the files it runs) is read once and kept from its check to its run (a
/// FIFO has no second reading to give); its statements are not kept (a file's syntax trees take
/// some 40 times its text), so it is parsed again as it runs. Files are checked in the order
/// given; a signal while one is waited for (a FIFO) ends the checks: that file is interrupted,
/// the rest are not run, and nothing runs.
public struct TestFiles: Sendable {
  /// The files, in the order given (the `--shard` share of them).
  public let paths: [String]
  /// Each file's check, by index.
  let checks: [Checked]
  /// The seconds the checks took.
  let seconds: Double

  /// How a file came out of its check.
  enum Checked: Sendable {
    /// Checked clean: its check and the loader holding its text.
    case ready(ScriptCheck?, ScriptLoader)
    /// Refused (it does not check, or could not be read): its result, as a report records it.
    case refused(ScriptResult)
    /// Not checked: a signal stopped the checks before it.
    case notRun
  }

  /// Whether any file checked clean, so the run needs a project (none does after a signal).
  public var anyToRun: Bool {
    !checks.contains(where: \.interrupted)
      && checks.contains { if case .ready = $0 { true } else { false } }
  }

  /// How many files their check refused (they do not check, or could not be read).
  var refused: Int { checks.count(where: { if case .refused = $0 { true } else { false } }) }

  /// How many files checked clean.
  var ready: Int { checks.count(where: { if case .ready = $0 { true } else { false } }) }

  /// Collects the files `configuration` names (its `--shard` share) and checks each with the
  /// variables `--var` binds.
  /// - Throws: `UsageError` when a path does not exist or `--timings` cannot be read.
  public static func check(
    _ configuration: TestRunner.Configuration, errors: OutputWriter,
    environment: [String: String] = ProcessEnvironment.current
  ) throws(UsageError) -> TestFiles {
    let started = ContinuousClock.now
    let paths = try TestRunner.shardFiles(
      try ScriptFiles.collect(
        configuration.paths, standardInput: false, follow: configuration.follow,
        note: {
          errors.write($0 + "\n")
          errors.flush()
        }),
      configuration)
    // Each file runs with its own folder in `$env.SNM_TEST_TMPDIR` (TestRunner.runFileOnce).
    var environment = environment
    environment[TestRunner.scratchVariable] = NSTemporaryDirectory()
    var options = configuration.options
    // What a file printed goes in its report as well as on standard output: never painted.
    options.noColor = true
    var checks: [Checked] = []
    for path in paths {
      guard checks.allSatisfy({ !$0.interrupted }) else {
        checks.append(.notRun)
        continue
      }
      var early = EarlyCheck(options: options, environment: environment)
      early.check(files: [path], keeping: false)
      let said = OutputWriter()
      if let code = early.refusal(errors: said) {
        let text = said.captured
        let failure =
          early.failure(text: text)
          ?? ScriptFailure(
            kind: .error, location: path, statement: "", message: "exit code \(code.rawValue)",
            text: text)
        checks.append(.refused(ScriptResult(path: path, exitCode: code, failures: [failure])))
      } else {
        checks.append(.ready(early.files?.first, early.loader))
      }
    }
    return TestFiles(
      paths: paths, checks: checks, seconds: TestRunner.seconds(ContinuousClock.now - started))
  }
}

extension TestFiles.Checked {
  /// Whether a signal stopped the wait for this file.
  var interrupted: Bool {
    guard case .refused(let result) = self else { return false }
    return result.exitCode == .interrupted || result.exitCode == .terminated
  }

  /// The result of a file that does not run: its refusal, or not run.
  func result(_ path: String) -> ScriptResult? {
    switch self {
    case .ready: nil
    case .refused(let result): result
    case .notRun: .notRun(path)
    }
  }
}
