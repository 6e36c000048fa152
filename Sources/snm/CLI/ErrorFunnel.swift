import Foundation
import SNMLocal
import SNMShell
import SNMWire

/// Every error that ends snm, whichever command it came from, as one message on standard error
/// and an exit code (swift-argument-parser's `MessageInfo`).
///
/// ```
/// snm explain: no statement to explain
/// usage: snm explain [--json | --curl] [--url URL] [--var NAME=VALUE]... 'STATEMENT'...
/// Try 'snm explain --help'.
/// ```
enum ErrorFunnel {
  /// Prints `error` as `command` reports it; returns the exit code. A message may quote what a
  /// user typed, a folder's or a file's name, a server's words: every character a terminal must
  /// not get raw is shown as an escape (`\u{202E}`); refused statements come rendered so.
  static func report(_ error: any Error, command: Command) -> Int32 {
    let (text, code) = shown(error, command: command)
    StandardStreams.writeError(text)
    return code.rawValue
  }

  /// The text for `error` as it is written (a server's control characters as escapes) and its
  /// exit code.
  static func shown(_ error: any Error, command: Command) -> (String, ExitCode) {
    let (text, code) = message(for: error, command: command)
    if error is StatementsRefused { return (text, code) }
    return (VisibleText.escaped(text, keepingNewlines: true), code)
  }

  /// The text (ending with a newline) and exit code for `error`.
  static func message(for error: any Error, command: Command) -> (String, ExitCode) {
    let prefix = command.invocation
    switch error {
    case let usage as UsageError:
      // One line, whatever it quotes: a value's line feed (a SUPABASE_URL read from a file with
      // its newline) is shown as an escape, not as a line break inside the quotes.
      var text = "\(prefix): \(VisibleText.escaped(usage.message))\n"
      if command != .shell { text += CommandDescription.of(command).usageLine + "\n" }
      return (text + "Try '\(prefix) --help'.\n", .usage)
    case let refused as StatementsRefused:
      return (refused.rendered, .usage)
    case let local as LocalProjectError:
      // A local project that cannot be had is the shell's failure to reach its project, worded
      // as `snm local` words it only under `snm local`.
      let code = ExitCode(rawValue: local.exitCode) ?? .unreachable
      return ("\(prefix): \(local.description)\n", code)
    case let failure as CommandFailure:
      return ("\(prefix): \(failure.message)\n", failure.exitCode)
    default:
      return ("\(prefix): \(error)\n", .failure)
    }
  }
}
