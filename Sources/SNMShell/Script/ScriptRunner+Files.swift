import Foundation
import SNMNetwork
import SNMQuery
import SNMWire

extension ScriptRunner {
  /// Runs the script file at `path` (relative to the working directory): checks it and every file
  /// it runs first (nothing is sent when anything is wrong), then runs it.
  ///
  /// ```swift
  /// let code = await runner.run(file: "smoke/pair.snm")
  /// ```
  /// `-` reads the script from standard input (to its end, as a file is read) and runs it as
  /// `stdin`; the files it runs are found from the working directory. With `checked` (its check
  /// made before, by ``EarlyCheck``) it is not checked again.
  public mutating func run(file path: String, checked early: ScriptCheck? = nil) async -> ExitCode {
    let loader = state.loader
    let source: Source
    do {
      source = try loader.load(path)
    } catch {
      return refuse(path, error)
    }
    if path != "-" { state.files.insert(path) }
    // A file of ordinary size keeps the statements its check parsed; a larger one is parsed
    // again, a statement at a time, to run in the memory of its text.
    let check =
      early
      ?? ScriptCheck.check(
        file: source, variables: executor.boundNames(), loader: loader,
        keeping: source.bytes.count <= Self.keptScriptBytes, environment: executor.environment)
    if let interruption = check.interruption { return refuse(path, interruption) }
    guard !check.hasErrors else {
      reportCheckErrors(check)
      return .usage
    }
    state.files.formUnion(check.findings.map(\.source.fileName))
    if let line = announcement {
      executor.baseErrors.write(line + "\n")
      executor.baseErrors.flush()
      announcement = nil
    }
    // A check that kept none parsed the file only to check it (or it holds none to run).
    if check.script.statements.isEmpty {
      _ = await runStatements(ParsedStatements(source), in: source, complete: true)
    } else {
      _ = await runStatements(check.script.statements, in: source, complete: true)
    }
    return exitCode
  }

  /// Says why the script file `path` (or a file it runs) could not be read, records it as the
  /// run's failure and returns its exit code (2; 130 or 143 when a signal stopped the wait).
  mutating func refuse(_ path: String, _ error: ScriptLoadError) -> ExitCode {
    let text = "snm: \(error.description)\n"
    executor.baseErrors.write(text)
    executor.baseErrors.flush()
    state.failures.append(.unreadable(path, error, text: text))
    fail(error.exitCode)
    return error.exitCode
  }

  /// The largest script file whose parsed statements are kept from its check to its run: parsed
  /// statements take some 40 times the memory of their text (a 1 MB file of `let`s, 43 MB more),
  /// so this keeps at most about 10 MB; keeping them saves about a quarter of the CPU time of a
  /// file's check and run (measured with `let` statements, nothing sent).
  static let keptScriptBytes = 256 << 10

  /// Parses, checks and runs every statement in `text`; returns whether all of them succeeded.
  ///
  /// A parse or check error (in `text` or in a file it `run`s) runs nothing and prints every
  /// diagnostic (exit code 2). At the prompt every statement runs; elsewhere the first failure
  /// stops the rest unless `on_error` is `continue` (Script/ScriptRunner+Loop.swift).
  /// `complete` is false for standard input's chunks: a failure at the end of one waits to see
  /// whether the next begins with `expect error`. `firstLine` is the line `text` starts on in
  /// its input, so locations name the real line.
  mutating func execute(
    _ text: String, source name: String, complete: Bool = true, firstLine: Int = 1
  ) async -> Bool {
    guard let check = checked(text, source: name, firstLine: firstLine) else { return false }
    let end = await runStatements(
      check.script.statements, in: check.script.source, complete: complete)
    return end == .succeeded
  }

  /// `text` parsed and checked (``ScriptCheck``), before any of it runs; nil when the check
  /// failed, which is then reported and recorded (exit code 2).
  mutating func checked(_ text: String, source name: String, firstLine: Int = 1) -> ScriptCheck? {
    let parsed = Parser.parse(Source(text: text, fileName: name, firstLine: firstLine))
    let loader = state.loader
    let check = ScriptCheck.check(
      parsed, file: nil, variables: executor.boundNames(), loader: loader,
      environment: executor.environment)
    if let interruption = check.interruption {
      _ = finishScript()
      executor.baseErrors.write("snm: \(interruption.description)\n")
      executor.baseErrors.flush()
      if !atPrompt { fail(interruption.exitCode) }
      return nil
    }
    if check.hasErrors {
      _ = finishScript()
      reportCheckErrors(check)
      return nil
    }
    return check
  }

  /// Prints every diagnostic of `check` and records the script's failure (exit code 2).
  mutating func reportCheckErrors(_ check: ScriptCheck) {
    let colour = Terminal.usesColour(fd: STDERR_FILENO, disabled: !executor.currentSettings.colour)
    let text = check.rendered(colored: colour)
    executor.baseErrors.write(text)
    executor.baseErrors.flush()
    if let failure = ScriptFailure.checkFailed(check, text: check.rendered(colored: false)) {
      state.failures.append(failure)
    }
    fail(.usage)
  }

  /// `run file` (also `\i file`): runs another script with the same variables and session. The
  /// path is relative to the file the `run` is in (to the working directory from `-c`, standard
  /// input and the prompt). At the prompt too it runs as a script: the first failure stops it
  /// (unless `on_error` is `continue`), named by its `file:line:col`; Ctrl-C stops the file and
  /// the prompt comes back.
  mutating func runInclude(_ run: RunStatement, in source: Source, routing: StatementRouting)
    async -> StatementResult
  {
    let (loader, isFile, chain) =
      (state.loader, state.files.contains(source.fileName), state.running.map(\.source.fileName))
    let target = ScriptLoader.resolve(run.path, from: isFile ? source.fileName : nil)
    let identity = ScriptLoader.identity(of: target)
    let files = chain.filter { name in state.files.contains(name) }
    if files.contains(where: { ScriptLoader.identity(of: $0) == identity }) {
      return executor.report(
        Diagnostic(.runCycle(files + [target]), at: run.pathRange), in: source, routing: routing)
    }
    // Not read before: it was not there when the script was checked (a statement since wrote it).
    let unseen = loader.loaded(target) == nil
    let included: Source
    do {
      // As it is now (a statement before may have written it), checked again below.
      included = try loader.current(target)
    } catch {
      return executor.report(
        Diagnostic(.runTarget(error), at: run.pathRange), in: source, routing: routing)
    }
    let check = ScriptCheck.check(
      file: included, variables: executor.boundNames(), loader: loader,
      environment: executor.environment)
    guard !check.hasErrors else { return refuseRun(check, routing: routing) }
    state.files.formUnion(check.findings.map(\.source.fileName) + [target])
    let fromPrompt = atPrompt
    state.including += 1
    let end = await runStatements(ParsedStatements(included), in: included, complete: true)
    state.including -= 1
    switch end {
    case .succeeded:
      // The names it bound are known now: the statements after its `run` (in this file, or
      // `-c`'s), whose variables bound nowhere were left to the run, are checked before any of
      // them runs.
      if unseen {
        let rest = ScriptCheck.checkRest(
          of: source, from: run.pathRange.end, file: isFile ? source.fileName : nil,
          variables: executor.boundNames(), loader: loader, environment: executor.environment)
        if rest.hasErrors { return refuseRun(rest, routing: routing) }
      }
      return .succeeded(nil)
    case .failed: return .failed(.reported)
    case .interrupted(let signal):
      // Ctrl-C at the prompt stops the file, not the shell (SIGTERM still ends it).
      if fromPrompt && signal == SIGINT {
        state.exitRequested = false
        state.interruptionReported = false
      }
      return .interrupted(signal)
    }
  }

  /// Prints the diagnostics of `check` (a file about to run, or the rest of one) and fails the
  /// `run` statement with its first error (exit 2).
  func refuseRun(_ check: ScriptCheck, routing: StatementRouting) -> StatementResult {
    let colour = Terminal.usesColour(fd: STDERR_FILENO, disabled: !executor.currentSettings.colour)
    let errors = executor.statementOutput(routing).errors
    errors.write(check.rendered(colored: colour))
    errors.flush()
    return .failed(
      StatementFailure(
        .usage, message: check.firstError.map { "\($0.location): error: \($0.message)" }))
  }
}
