import CProcess
import Foundation
import SNMLocal
import SNMNetwork
import SNMQuery
import SNMShell

// No core file, and no reading of this process's memory by others of its user: it holds keys,
// tokens, passwords, and as `snm local` the JWT secret. A failure (a sandbox refusing prctl) still
// lets snm run.
_ = snm_forbid_core_dumps()

// The one funnel: argv -> options -> run -> exit code. Every error becomes one message and a code.
let arguments = Array(CommandLine.arguments.dropFirst())
// Subcommands that own their process (and its signals) dispatch first.
if arguments.first == "local" { exit(LocalCommand.run(Array(arguments.dropFirst()))) }

InterruptSignals.shared.install()
// A reader that went away (`snm ... | head`) ends output quietly instead of killing snm mid-write.
signal(SIGPIPE, SIG_IGN)
let status: ExitCode
do {
  switch try CommandLineParser.parse(arguments) {
  case .version:
    print("snm \(SNMNetwork.version)")
    status = .success
  case .help:
    print(HelpText.usage, terminator: "")
    status = .success
  case .completion(let shell):
    print(CompletionScript.script(for: shell), terminator: "")
    status = .success
  case .subcommand("explain", let rest):
    let result = ExplainCommand.run(rest, environment: ProcessInfo.processInfo.environment)
    FileHandle.standardOutput.write(Data(result.output.utf8))
    FileHandle.standardError.write(Data(result.errors.utf8))
    status = ExitCode(rawValue: result.status) ?? .usage
  case .subcommand("test", let rest):
    let line = try TestCommandLine.parse(rest, command: "test")
    if line.help {
      print(TestCommandLine.testUsage, terminator: "")
      status = .success
    } else {
      let project = try ProjectSelection.resolve(line.options) ?? localProject()
      status = try await TestRunner(project: project, line: line).run()
    }
  case .subcommand("check", let rest):
    let line = try TestCommandLine.parse(rest, command: "check")
    if line.help {
      print(TestCommandLine.checkUsage, terminator: "")
      status = .success
    } else {
      let loader = ScriptLoader()
      status = try CheckCommand.run(line, loader: loader)
      // snm exits next: freeing 100,000 statements' syntax trees would only add a tenth to the time.
      _ = Unmanaged.passRetained(loader)
    }
  case .subcommand(let name, _):
    throw UsageError("unknown command 'snm \(name)' (snm --help lists them)")
  case .run(let options):
    status = try await runShell(options)
  }
} catch let error as LocalProjectError {
  FileHandle.standardError.write(Data("snm: \(error.description)\n".utf8))
  status = ExitCode(rawValue: error.exitCode) ?? .unreachable
} catch let error as UsageError {
  FileHandle.standardError.write(Data("snm: \(error.message)\nTry 'snm --help'.\n".utf8))
  status = .usage
} catch {
  FileHandle.standardError.write(Data("snm: \(error)\n".utf8))
  status = .failure
}
exit(status.rawValue)

/// The shell, `-c` statements or scripts, against the selected project.
func runShell(_ options: CommandLineOptions) async throws -> ExitCode {
  let project = try ProjectSelection.resolve(options) ?? localProject()
  let shell = await Shell.connected(project: project, options: options)
  if !options.commands.isEmpty {
    let text = options.commands.joined(separator: "\n")
    return await shell.stoppingOnSignals { await shell.run(text: text, name: "-c") }
  }
  if !options.files.isEmpty {
    let files = options.files
    return await shell.stoppingOnSignals { await shell.run(files: files) }
  }
  guard Terminal.isTerminal(STDIN_FILENO) else {
    return await shell.stoppingOnSignals { await shell.runPrompt(reader: PlainLineReader()) }
  }
  shell.startLoadingSchema()
  let completer = ShellCompleter(catalog: shell.catalog, variables: { shell.variableNames() })
  do {
    let reader = try LibEditLineReader(
      history: HistoryFile(path: HistoryFile.defaultPath()), completer: completer)
    return await shell.runPrompt(reader: reader)
  } catch {
    // No line editor on this terminal: read lines plainly rather than not at all.
    FileHandle.standardError.write(
      Data("snm: no line editing here (\(error)); reading plainly\n".utf8))
    return await shell.stoppingOnSignals { await shell.runPrompt(reader: PlainLineReader()) }
  }
}

/// No project configured: the local one, started on first use (default data dir, port 54321).
func localProject() throws -> ProjectSelection {
  let endpoint = try LocalProject.ensureRunning()
  return try ProjectSelection(url: endpoint.url, key: endpoint.apiKey, name: "local")
}
