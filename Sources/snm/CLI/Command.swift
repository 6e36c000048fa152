/// snm's commands: the shell (no subcommand) and the subcommands, each with the words `--help`
/// and the completion scripts show for it.
enum Command: String, CaseIterable, Sendable, Hashable, CustomStringConvertible {
  case shell
  case explain
  case test
  case check
  case local
  case completion
  case report
  case session
  case listen
  case realtime
  case gen

  /// The subcommand `name` names (`explain`, ...); nil for anything else.
  static func subcommand(named name: String) -> Command? {
    guard let command = Command(rawValue: name), command != .shell else { return nil }
    return command
  }

  /// `snm`, `snm test`.
  var invocation: String { self == .shell ? "snm" : "snm \(rawValue)" }

  var description: String { invocation }

  /// The commands that run statements against a project, and take the shell's OPTIONS.
  static let running: Set<Command> = [.shell, .test, .check, .session, .listen, .realtime]
}
