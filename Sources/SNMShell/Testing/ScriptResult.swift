/// How one script file ran under `snm test`: its outcome, failures and what it printed.
///
/// ```swift
/// let result = await runner.run(file: "smoke/pair.snm")
/// if !result.passed { print(result.failures[0].text) }
/// ```
public struct ScriptResult: Sendable, Equatable {
  /// The file as it was named (a path given on the command line, or found under a directory).
  public var path: String
  /// The exit code `snm FILE` would have given.
  public var exitCode: ExitCode
  /// What went wrong, in order (more than one with `on_error continue`).
  public var failures: [ScriptFailure] = []
  /// Statements that ran, counting those of `run` files.
  public var statements: Int = 0
  /// Expectations that held.
  public var expectations: Int = 0
  /// Seconds the file took.
  public var seconds: Double = 0
  /// What the script printed on standard output (results, `echo`).
  public var output: String = ""
  /// Whether the file was never run (the run was interrupted first).
  public var skipped: Bool = false
  /// The requests and answers it sent (all with `--verbose`, else the last few), masked.
  public var trace: [String] = []
  /// How many times it ran (more than once under `--retry` for a file marked idempotent).
  public var attempts = 1

  /// Whether everything in the file ran and held.
  public var passed: Bool { exitCode == .success && !skipped }

  /// A file that was not run because the run was interrupted before it.
  public static func notRun(_ path: String) -> ScriptResult {
    ScriptResult(path: path, exitCode: .interrupted, skipped: true)
  }
}
