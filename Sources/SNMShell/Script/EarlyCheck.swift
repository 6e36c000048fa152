import Foundation
import SNMQuery
import Synchronization

/// What a run of `-c`, script files or standard input is about to run, read and checked before
/// its project is chosen: a script that does not parse or check is refused (its diagnostics,
/// exit 2) with no project chosen, started or reached. It started the local project first (and
/// a start that failed, port 54321 taken, exited 3 with nothing said of the script's mistake).
///
/// ```swift
/// var early = EarlyCheck(options: options, environment: environment)
/// early.check(statements: "from where nonsense")
/// if let code = early.refusal(errors: .standardError, colour: false) { return code }  // 2
/// var runner = ScriptRunner(executor: executor, loader: early.loader)
/// await runner.run(checked: early.statements!)         // not checked a second time
/// ```
/// Script files are checked in order, each with the variables the files before it bind, as
/// running them checks each (``ScriptRunner/run(files:checked:)`` takes the checks); a pipe's
/// first statement is read and checked (``firstStatement(of:)``): the rest of a pipe comes as
/// it comes and is checked at its line, after what came before it ran.
public struct EarlyCheck {
  /// The script files read, shared with the runner: each is read once.
  public let loader = ScriptLoader()
  /// `-c`'s statements checked, when the run has them.
  public private(set) var statements: ScriptCheck?
  /// The script files' checks, in the order given (nil until ``check(files:)``).
  public private(set) var files: [ScriptCheck]?
  /// The variables `--var` binds.
  let variables: Set<String>
  /// The environment the run will have (`$env.NAME`).
  let environment: [String: String]
  /// Whether diagnostics are painted: standard error and standard output are terminals and
  /// `--no-color` was not given, as the runner decides.
  let colour: Bool
  /// The checks with errors, in order.
  private var failed: [ScriptCheck] = []
  /// A file that could not be read (or a wait for one a signal stopped): the run ends with it.
  private var unreadable: ScriptLoadError?
  /// A pipe that could not be read on (bytes that are not UTF-8) before its first statement
  /// ended, and the line where: the run ends with it, as the prompt loop would end it.
  private var unreadablePipe: (problem: ScriptLoadError, line: Int)?
  /// The script file given whose reading (or a file it runs) ended the run so.
  private var unreadablePath = ""

  public init(options: ShellOptions, environment: [String: String]) {
    self.variables = Set(options.variableValues.keys)
    self.environment = environment
    let stdoutColour = Terminal.usesColour(fd: STDOUT_FILENO, disabled: options.noColor)
    self.colour = Terminal.usesColour(fd: STDERR_FILENO, disabled: !stdoutColour)
  }

  /// Checks `text` (`-c`'s statements, or standard input read whole) named `name`.
  public mutating func check(text: String, name: String) {
    let parsed = Parser.parse(Source(text: text, fileName: name))
    let check = ScriptCheck.check(
      parsed, file: nil, variables: variables, loader: loader, environment: environment)
    record(check)
    statements = check
  }

  /// Checks the script files `paths` in order (`-`: standard input read to its end), each with
  /// the variables the ones before it bind (after a `run` of a file not there yet, which may bind
  /// any, a variable bound nowhere is left to the run to refuse, in the files after it too); the
  /// first file of an ordinary size keeps its parsed
  /// statements for its run (``ScriptRunner/keptScriptBytes``), the others are parsed again as
  /// they run (a run of many files would hold all their syntax trees at once). Stops at a file
  /// that cannot be read. With `keeping` false no file keeps its statements (`snm test`, which
  /// checks every file before it runs the first).
  public mutating func check(files paths: [String], keeping: Bool = true) {
    var checks: [ScriptCheck] = []
    var bound = variables
    var afterUnseen = false
    for path in paths {
      unreadablePath = path
      let source: Source
      do { source = try loader.load(path) } catch {
        unreadable = error
        return
      }
      let check = ScriptCheck.check(
        file: source, variables: bound, loader: loader,
        keeping: keeping && checks.isEmpty
          && source.bytes.count <= ScriptRunner.keptScriptBytes,
        environment: environment, afterUnseen: afterUnseen)
      record(check)
      if unreadable != nil { return }
      bound.formUnion(check.bound)
      afterUnseen = check.runsUnseen
      checks.append(check)
    }
    files = checks
  }

  /// The lines of standard input read as a pipe, up to its first statement (or its end; blank
  /// lines and comments before it too), which is checked; what was read comes first from the
  /// reader this returns, then the rest of the pipe.
  public mutating func firstStatement(of reader: any LineReader) -> any LineReader {
    var buffer = StatementBuffer()
    var read: [LineInput] = []
    while true {
      let input = reader.readLine(prompt: "")
      read.append(input)
      guard case .line(let line) = input else {
        // A statement still open at the end of the input runs as it is (``PromptLoop``): its
        // check is made now too (it chose the project first, and a start of the local project).
        if input == .end && !buffer.isEmpty {
          _ = checkFirst(buffer.pending, firstLine: read.count - buffer.lineCount)
        }
        // Unreadable before its first statement ended: nothing would run.
        if case .unreadable(let problem) = input { unreadablePipe = (problem, read.count) }
        break
      }
      // The lines the statement spans, this one with them, as the prompt loop counts them.
      let statementLines = buffer.lineCount + 1
      guard let text = buffer.add(line), !text.allSatisfy(\.isWhitespace) else { continue }
      if checkFirst(text, firstLine: read.count - statementLines + 1) { break }
    }
    return ReplayingLineReader(read, then: reader)
  }

  /// Checks `text`, a pipe's first statement, from line `firstLine` of standard input; false
  /// when it holds comments only (the first statement is still to come).
  private mutating func checkFirst(_ text: String, firstLine: Int) -> Bool {
    let parsed = Parser.parse(Source(text: text, fileName: "stdin", firstLine: firstLine))
    if parsed.statements.isEmpty && parsed.diagnostics.isEmpty { return false }
    record(
      ScriptCheck.check(
        parsed, file: nil, variables: variables, loader: loader, environment: environment))
    return true
  }

  /// Keeps `check` when it has errors; a signal that stopped the wait for a file it runs ends
  /// the run.
  private mutating func record(_ check: ScriptCheck) {
    if let interruption = check.interruption { unreadable = interruption }
    if check.hasErrors { failed.append(check) }
  }

  /// Nil when everything checked; else writes why the run is refused to `errors` (every
  /// diagnostic up to a limit, or the file or pipe that could not be read) and returns the exit
  /// code: 2, or 130 and 143 when a signal stopped the wait for a file.
  public func refusal(errors: OutputWriter) -> ExitCode? {
    if let (problem, line) = unreadablePipe {
      errors.write(PromptLoop.unreadable(problem, line: line))
      errors.flush()
      return problem.exitCode
    }
    if let unreadable {
      // The files before it that failed their check are said too.
      errors.write(renderFailed())
      errors.write("snm: \(unreadable.description)\n")
      errors.flush()
      return unreadable.exitCode
    }
    guard !failed.isEmpty else { return nil }
    errors.write(renderFailed())
    errors.flush()
    return .usage
  }

  /// The record of the refusal for a report (nil when everything checked): the file that could
  /// not be read, else the first error of the first check that failed; `text` is what
  /// ``refusal(errors:)`` wrote.
  public func failure(text: String) -> ScriptFailure? {
    if let unreadable { return .unreadable(unreadablePath, unreadable, text: text) }
    return failed.lazy.compactMap { ScriptFailure.checkFailed($0, text: text) }.first
  }

  /// The diagnostics of the checks that failed, their first errors (``ShownDiagnostics``).
  private func renderFailed() -> String {
    var shown = ShownDiagnostics()
    return failed.map { shown.render($0, colored: colour) }.joined() + (shown.tail ?? "")
  }
}

/// Lines read already, handed out again first, then those of the reader they came from.
final class ReplayingLineReader: LineReader, Sendable {
  private let read: Mutex<ArraySlice<LineInput>>
  private let reader: any LineReader

  init(_ read: [LineInput], then reader: any LineReader) {
    self.read = Mutex(read[...])
    self.reader = reader
  }

  var isInteractive: Bool { reader.isInteractive }

  func readLine(prompt: String, pending: String) -> LineInput {
    if let input = read.withLock({ $0.popFirst() }) { return input }
    return reader.readLine(prompt: prompt, pending: pending)
  }

  func remember(_ statement: String) { reader.remember(statement) }
}
