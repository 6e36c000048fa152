import Foundation
import SNMLocal
import SNMNetwork
import SNMShell
import SNMSupabase
import SNMWire

/// Runs what the command line asked for; returns the exit code. Errors go to ``ErrorFunnel``.
enum Runner {
  static func run(_ invocation: Invocation) async throws -> Int32 {
    switch invocation {
    case .version:
      StandardStreams.writeOutput("snm \(SNMNetwork.version)\n")
      return ExitCode.success.rawValue
    case .help(let command):
      StandardStreams.writeOutput(HelpText.text(for: command))
      return ExitCode.success.rawValue
    case .completion(let shell):
      StandardStreams.writeOutput(CompletionScript.script(for: shell))
      return ExitCode.success.rawValue
    case .explain(let explain):
      let text = try explain.run(
        environment: ProcessEnvironment.current, note: ProjectTargeting.say)
      StandardStreams.writeOutput(text)
      return ExitCode.success.rawValue
    case .test(let configuration):
      // Every file is read and checked first: a file that does not parse is a failed test with
      // no project started for it, and none is chosen when no file is left to run.
      let files = try TestFiles.check(configuration, errors: .standardError)
      guard files.anyToRun else {
        return TestRunner.reportWithoutRunning(files, configuration: configuration).rawValue
      }
      let chosen: (ProjectSelection, RunTarget)
      do {
        chosen = try ProjectTargeting.choose(configuration.options, needsName: "")
      } catch {
        // No project (none named, a --local start that failed): the error is said once, the
        // refused files' diagnostics are still shown, and the files that checked clean are
        // counted as not run (the reports record each as an error with the project's error).
        let (text, code) = ErrorFunnel.shown(error, command: .test)
        StandardStreams.writeError(text)
        return TestRunner.reportWithoutRunning(
          files, configuration: configuration, unreached: (text, code)
        ).rawValue
      }
      return await TestRunner(project: chosen.0, target: chosen.1, configuration: configuration)
        .run(files).rawValue
    case .mergeReports(let paths, let reports):
      let merged = try TestReportFile.merge(paths, into: reports)
      let passed = merged.filter(\.passed).count
      let failed = merged.filter { !$0.passed && !$0.skipped }.count
      StandardStreams.writeOutput("\(passed) passed, \(failed) failed\n")
      return failed == 0 ? ExitCode.success.rawValue : ExitCode.failure.rawValue
    case .check(let paths, let options, let follow):
      let loader = ScriptLoader()
      let code = try CheckCommand.run(
        paths: paths, options: options, project: ProjectTargeting.offline(options), loader: loader,
        follow: follow)
      // snm exits next: freeing 100,000 statements' syntax trees would only add a tenth to the time.
      _ = Unmanaged.passRetained(loader)
      return code.rawValue
    case .local(let local):
      return try local.run(onTermination: { handler in
        InterruptSignals.shared.onSignal { _ in handler() }
      })
    case .gen(let gen):
      return try await gen.run().rawValue
    case .realtimeCheck(let check):
      return try await check.run().rawValue
    case .listen(let options, let stream):
      let environment = ProcessEnvironment.current
      let (project, _) = try ProjectTargeting.choose(
        options,
        needsName: ProjectChoice.underCI(environment)
          ? ", and CI is set (CI=\(ProjectChoice.shown(environment["CI"] ?? "")))" : nil)
      let executor = await StatementExecutor.connected(project: project, options: options)
      return await executor.stoppingOnSignals { await stream.run(executor: executor) }.rawValue
    case .shell(let options, let statements, let files):
      return try await runShell(options, statements: statements, files: files).rawValue
    }
  }

  /// The shell, `-c` statements or scripts, against the selected project.
  static func runShell(_ options: ShellOptions, statements: [String], files: [String])
    async
    throws -> ExitCode
  {
    // A script that cannot be read is refused before anything else: a mistyped name must not
    // start the local project (nor reach any other) first.
    for path in files {
      if let problem = ScriptLoader.problem(reading: path) { throw UsageError(problem.description) }
    }
    if files.filter({ $0 == "-" }).count > 1 {
      throw UsageError(ScriptFiles.standardInputTwice)
    }
    let interactive = statements.isEmpty && files.isEmpty && Terminal.isTerminal(STDIN_FILENO)
    // A file redirected in (`snm < a.snm`) is there whole: read now, refused as a script file is
    // when it cannot be, and checked whole first. A pipe runs a statement at a time as it comes,
    // as psql and sh read one (docs/language.md).
    var whole: String?
    if statements.isEmpty && files.isEmpty && !interactive {
      do { whole = try PlainLineReader.wholeFileOnStandardInput() } catch {
        throw UsageError(error.description)
      }
    }
    let environment = ProcessEnvironment.current
    // What will run is checked before a project is chosen: a script that does not parse starts
    // no local project and reaches no other (a pipe: its first statement).
    var early = EarlyCheck(options: options, environment: environment)
    var piped: (any LineReader)?
    if !statements.isEmpty {
      early.check(text: statements.joined(separator: "\n"), name: "-c")
    } else if !files.isEmpty {
      early.check(files: files)
    } else if let whole {
      early.check(text: whole, name: "stdin")
    } else if !interactive {
      piped = early.firstStatement(of: PlainLineReader())
    }
    if let code = early.refusal(errors: .standardError) { return code }
    let loader = early.loader
    let (project, target) = try ProjectTargeting.choose(
      options,
      needsName: !interactive && ProjectChoice.underCI(environment)
        ? ", and CI is set (CI=\(ProjectChoice.shown(environment["CI"] ?? "")))" : nil)
    let executor = await StatementExecutor.connected(
      project: project, options: options, interactive: interactive)
    if let checked = early.statements, !statements.isEmpty {
      return await executor.stoppingOnSignals {
        var runner = ScriptRunner(executor: executor, loader: loader)
        return await runner.run(checked: checked)
      }
    }
    if let checked = early.files {
      // A script file's first line on standard error is its target (once its check passed).
      let announcement = options.quiet ? nil : target.line
      guard options.sharedSession else {
        return await runIsolated(
          files, checked, loader, project, options, announcement: announcement)
      }
      return await executor.stoppingOnSignals {
        var runner = ScriptRunner(executor: executor, loader: loader)
        runner.announcement = announcement
        return await runner.run(files: files, checked: checked)
      }
    }
    guard interactive else {
      // Standard input read whole was checked whole; it runs a statement at a time as a pipe.
      let reader = piped ?? PlainLineReader(text: whole ?? "")
      return await executor.stoppingOnSignals {
        var loop = PromptLoop(executor: executor, reader: reader, loader: loader)
        return await loop.run()
      }
    }
    // The project's names load on their first need (the first key typed, Tab, a statement that
    // reads them), not before the prompt: a session left at once never asks for them.
    executor.prepareSchemaLoading()
    if !options.quiet {
      // Not through a Data of the banner's UTF-8, which costs about 0.25M instructions here.
      OutputWriter.standardOutput.write(executor.startupBanner())
      OutputWriter.standardOutput.flush()
    }
    if !options.skipStartupFile { await executor.applyStartupFile() }
    let catalog = executor.catalog
    let completer = ShellCompleter(catalog: catalog, variables: { executor.variableNames() })
    do {
      let reader = try LibEditLineReader(
        history: HistoryFile(path: HistoryFile.defaultPath()), completer: completer,
        onFirstKey: { catalog.loadIfNotStarted() })
      var loop = PromptLoop(executor: executor, reader: reader)
      return await loop.run()
    } catch LineReaderError.inTheBackground {
      // Its terminal is not snm's to read, with an editor or without (the plain read failed with
      // EIO after a notice that it would read plainly): said once, exit 2.
      let problem = ScriptLoadError.inTheBackground("-")
      StandardStreams.writeError(PromptLoop.unreadable(problem, line: nil))
      return problem.exitCode
    } catch {
      // No line editor on this terminal: read lines plainly rather than not at all.
      StandardStreams.writeError("snm: no line editing here (\(error)); reading plainly\n")
      return await executor.stoppingOnSignals {
        var loop = PromptLoop(executor: executor, reader: PlainLineReader())
        return await loop.run()
      }
    }
  }

  /// Script files in a session of their own (signed out at the start, kept in a private
  /// folder removed afterwards), so they neither see nor spoil the saved one.
  static func runIsolated(
    _ files: [String], _ checked: [ScriptCheck], _ loader: ScriptLoader,
    _ project: ProjectSelection, _ options: ShellOptions, announcement: String?
  ) async -> ExitCode {
    let directory = NSTemporaryDirectory() + "snm-script-" + UUID().uuidString
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let executor = StatementExecutor.isolated(
      project: project, options: options,
      provider: SNMNetworkProvider(
        configuration: options.networkConfiguration(key: project.key)),
      sessionDirectory: directory, output: .standardOutput, errors: .standardError)
    return await executor.stoppingOnSignals {
      var runner = ScriptRunner(executor: executor, loader: loader)
      runner.announcement = announcement
      return await runner.run(files: files, checked: checked)
    }
  }
}
