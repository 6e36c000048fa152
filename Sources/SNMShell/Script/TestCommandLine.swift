import SNMQuery

/// The arguments of `snm test` and `snm check`: the shared OPTIONS, the paths, and for `test`
/// `--jobs N` and `--report KIND=PATH`.
///
/// ```swift
/// let line = try TestCommandLine.parse(["--jobs", "4", "--report", "junit=out.xml", "smoke/"])
/// line.jobs      // 4
/// line.paths     // ["smoke/"]
/// ```
/// Throws `UsageError` for an unknown option, a bad value, `-c`, or no paths.
public struct TestCommandLine: Equatable, Sendable {
  /// The options every mode shares (`--url`, `--var`, `--quiet`, ...).
  public var options = CommandLineOptions()
  /// Files and directories, in the order given.
  public var paths: [String] = []
  /// `--jobs N`: files run at the same time (1: one after another).
  public var jobs = 1
  /// `--report KIND=PATH`, in the order given.
  public var reports: [TestReport] = []
  /// `--help` was asked for.
  public var help = false

  public init() {}

  /// Reads `arguments` (after `snm test` or `snm check`); `command` names it in messages.
  /// - Throws: `UsageError`.
  public static func parse(_ arguments: [String], command: String = "test") throws(UsageError)
    -> TestCommandLine
  {
    var line = TestCommandLine()
    var rest: [String] = []
    var cursor = ArgumentCursor(arguments)
    while let argument = cursor.next() {
      if argument == "--" {
        rest += [argument] + cursor.remaining
        break
      }
      let (name, inline) = ArgumentCursor.split(argument)
      guard command == "test", name == "--jobs" || name == "--report" else {
        if argument == "-c" { throw UsageError("'snm \(command)' takes files, not -c") }
        rest.append(argument)
        continue
      }
      guard let value = cursor.value(inline: inline) else {
        throw UsageError("option '\(name)' needs a value: \(name == "--jobs" ? "N" : "KIND=PATH")")
      }
      if name == "--jobs" {
        guard let jobs = Int(value), (1...64).contains(jobs) else {
          throw UsageError("option '--jobs' needs a number from 1 to 64, not '\(value)'")
        }
        line.jobs = jobs
      } else {
        line.reports.append(try TestReport.parse(value))
      }
    }
    switch try CommandLineParser.parse(rest) {
    case .run(let options):
      line.options = options
      line.paths = options.files
      line.options.files = []
    case .help:
      line.help = true
      return line
    default:
      throw UsageError("'snm \(command)' takes OPTIONS and PATH...")
    }
    guard !line.paths.isEmpty else {
      throw UsageError("'snm \(command)' needs .snm files or directories to \(command)")
    }
    return line
  }

  /// What `snm test --help` prints.
  public static let testUsage = """
    usage: snm test [OPTIONS] PATH...

    Runs each .snm file (directories: every *.snm under them, in name order) as a test, with
    its own variables and its own session (signed out at the start, never saved). Prints PASS or
    FAIL per file in the order named, then a line 'N passed, M failed'.

      --jobs N               run N files at a time (the output and reports stay in file order)
      --report junit=PATH    write a JUnit XML report (also tap=PATH for TAP 13, json=PATH)
      --quiet                print only the failing files and the summary
      and the OPTIONS of 'snm --help' (--url, --key, --profile, --var NAME=VALUE, ...)

    Exit code: 0 when every file passed, else the highest exit code of a failed file (1 a
    statement or expectation failed, 2 a parse error, 3 the project could not be reached);
    130/143 when interrupted.

    """

  /// What `snm check --help` prints.
  public static let checkUsage = """
    usage: snm check [--var NAME=VALUE ...] [--quiet] [--no-color] PATH...

    Parses and checks .snm files (directories: every *.snm under them) and the files their
    'run' statements name, without a network. Prints every error; exit code 2 when there is one.

    """
}
