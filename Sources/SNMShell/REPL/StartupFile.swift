import Foundation
import SNMNetwork
import SNMQuery
import SNMSupabase

/// The startup file: settings applied before the first prompt, from `$XDG_CONFIG_HOME/snm/snmrc`
/// (else `~/.config/snm/snmrc`), as psql reads `~/.psqlrc`.
///
/// ```
/// # ~/.config/snm/snmrc
/// set format expanded
/// set timing on
/// \pset null '(null)'
/// ```
/// It holds settings only (`set ...`, `\x`, `\timing`, `\pset`), comments and blank lines: it runs
/// at every start, where a request would be a surprise. Only the interactive prompt reads it
/// (`snm -X` skips it); scripts, `-c`, standard input from a pipe and `snm test` never do, so a
/// script runs the same on every machine. A line in error is reported (`snmrc:3:5: error: ...`)
/// and skipped; the other settings apply and the prompt opens.
public enum StartupFile {
  /// `$XDG_CONFIG_HOME/snm/snmrc`, else `~/.config/snm/snmrc`.
  public static func defaultPath(
    environment: [String: String] = ProcessEnvironment.current
  ) -> String {
    XDGDirectory.config.snmPath(environment: environment) + "/snmrc"
  }

  /// The settings of the file at `path` (none when it does not exist), and the diagnostics of the
  /// lines in error (parse errors, and statements that are not settings), with its source.
  static func load(path: String) -> (
    settings: [Statement], diagnostics: [Diagnostic], source: Source
  )? {
    guard let data = FileManager.default.contents(atPath: path) else { return nil }
    let source = Source(text: String(decoding: data, as: UTF8.self), fileName: path)
    var parser = Parser(source)
    var settings: [Statement] = []
    var diagnostics: [Diagnostic] = []
    while let statement = parser.nextStatement() {
      if case .shell(let command) = statement.kind, command.isSetting {
        settings.append(statement)
      } else {
        diagnostics.append(
          Diagnostic(
            DiagnosticMessage(
              id: "startup-not-a-setting", "the startup file holds settings only"),
            at: statement.range,
            help: "set format|timing|pager|null|on_error, \\x, \\timing and \\pset go here; "
              + "run other statements at the prompt or from a script"))
      }
    }
    diagnostics += parser.parseDiagnostics
    diagnostics.sort { $0.range.start < $1.range.start }
    return (settings, diagnostics, source)
  }
}

extension StatementExecutor {
  /// Applies the startup file at `path` quietly (before the prompt); reports its errors on
  /// standard error and goes on. Returns whether it held no error.
  @discardableResult
  public func applyStartupFile(at path: String = StartupFile.defaultPath()) async -> Bool {
    guard let loaded = StartupFile.load(path: path) else { return true }
    if !loaded.diagnostics.isEmpty {
      let colour = Terminal.usesColour(fd: STDERR_FILENO, disabled: !currentSettings.colour)
      baseErrors.write(
        DiagnosticRenderer(colored: colour).render(loaded.diagnostics, in: loaded.source))
      baseErrors.write("snm: the startup file's other settings apply (snm -X skips the file)\n")
      baseErrors.flush()
    }
    var runner = ScriptRunner(executor: self)
    for statement in loaded.settings {
      _ = await runner.dispatch(statement, in: loaded.source)
    }
    return loaded.diagnostics.isEmpty
  }

  /// The line the interactive shell starts with, as psql's: the version and the project, and
  /// where help is.
  public func startupBanner() -> String {
    "snm \(SNMNetwork.version), project \(project.name) at \(PsqlCommand.shownURL(project.url))\n"
      + "Type \"help\" for help, \"\\?\" for the psql-style commands.\n\n"
  }
}
