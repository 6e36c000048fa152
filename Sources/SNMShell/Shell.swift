import Foundation
import SNMQuery
import SNMSupabase
import Synchronization

/// Runs snm statements: at the prompt, after `-c`, from standard input and from scripts.
///
/// ```swift
/// let shell = Shell(project: project, options: options)
/// let code = await shell.runPrompt(reader: reader)      // the interactive shell
/// let code = await shell.run(text: "from user_info select *", name: "-c")
/// ```
/// Statement failures are printed to standard error and reflected in the returned `ExitCode`;
/// nothing here throws.
public final class Shell: Sendable {
  /// The project statements go to.
  public let project: ProjectSelection
  let settings: Mutex<ShellSettings>
  let output: OutputWriter
  let errors: OutputWriter
  let state = Mutex(RunState())
  /// The project's session (`SessionManager.shared` in the snm binary, configured by main.swift).
  let sessions: SessionManager
  /// Signs in, up and out for the session statements.
  let auth: any AuthManageable
  /// Who the prompt says is signed in (nil: `anon`), kept current after each statement.
  let signedIn = Mutex<String?>(nil)

  /// What the statements so far have left behind.
  struct RunState {
    /// Set by `exit`/`quit`/`\q`: the loop ends after this statement.
    var exitRequested = false
    /// The worst outcome so far, as an exit code.
    var failure: ExitCode? = nil
  }

  /// A shell for `project` with the command line's settings.
  public init(
    project: ProjectSelection, options: CommandLineOptions,
    output: OutputWriter = .standardOutput, errors: OutputWriter = .standardError,
    sessions: SessionManager = .shared, auth: (any AuthManageable)? = nil
  ) {
    self.project = project
    self.sessions = sessions
    self.auth = auth ?? SupabaseAuthManager(config: project.supabaseConfig)
    self.output = output
    self.errors = errors
    let colour = Terminal.usesColour(fd: STDOUT_FILENO, disabled: options.noColor)
    self.settings = Mutex(ShellSettings(options: options, colour: colour))
  }

  /// The current settings.
  public var currentSettings: ShellSettings { settings.withLock { $0 } }

  /// Runs `text` (one or more statements) as a script named `name` (`-c`, a file name).
  /// Stops at the first failure unless `on_error` is `continue`.
  public func run(text: String, name: String) async -> ExitCode {
    _ = await execute(text, source: name)
    return state.withLock { $0.failure ?? .success }
  }

  /// Prints `message` as an error line: `snm: message`.
  func report(_ message: String) {
    errors.write("snm: \(message)\n")
    errors.flush()
  }
}
