import Foundation

/// `snm local start|stop|restart|status|reset|destroy|list|serve|inbox|logs|functions|idp`, once snm's command line has been read (by the
/// executable's CLI, on the table every command's options share).
///
/// ```swift
/// let command = LocalCommand(action: .status, options: options, json: true)
/// let code = try command.run(onTermination: { handler in ... })   // prints its report
/// ```
/// Throws `LocalProjectError`, which snm's one error funnel prints and turns into an exit code.
public struct LocalCommand: Sendable, Equatable {
  /// What to do with the project.
  public enum Action: String, Sendable, CaseIterable {
    case start, stop, restart, status, reset, destroy, list, serve, inbox, logs, functions, idp
  }

  public var action: Action
  public var options: LocalProjectOptions
  /// The options given on the command line by name (`port`, `jwt-expiry`, ...): they override
  /// what the project's folder remembers.
  public var given: Set<String>
  /// `--json`: one JSON object instead of the readable report.
  public var json: Bool
  /// `snm local inbox ADDRESS`: only that address's mails.
  public var inboxAddress: String?
  /// The words after `logs` (`functions [NAME]`) or `functions` (`new NAME`).
  public var words: [String] = []
  /// `snm local idp token`'s options.
  public var testToken = TestTokenRequest()
  /// `--yes`: `destroy` and `list --prune` delete without asking.
  public var yes = false
  /// `snm local list --prune`: delete the clusters of stopped projects whose folder is gone.
  public var prune = false
  /// `--unknown` with `--prune`: also the stopped clusters whose folder no record names.
  public var pruneUnknown = false

  public init(
    action: Action, options: LocalProjectOptions = LocalProjectOptions(), given: Set<String> = [],
    json: Bool = false
  ) {
    self.action = action
    self.options = options
    self.given = given
    self.json = json
  }

  /// Registers what SIGTERM and SIGINT do while `serve` runs (snm's one signal mechanism); the
  /// default actions are off once a handler is registered.
  public typealias TerminationHook = @Sendable (@escaping @Sendable () -> Void) -> Void
}
