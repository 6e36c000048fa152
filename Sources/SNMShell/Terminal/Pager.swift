import Foundation
import SNMWire

#if canImport(Glibc)
  import Glibc
#endif

/// Shows long output through `$SNM_PAGER`, else `$PAGER`, else `less -SRXF`, when standard output
/// is a terminal.
///
/// ```swift
/// if Pager.isNeeded(for: text), let pager = Pager.command(), await Pager.show(text, through: pager) {
///   return
/// }
/// print(text)
/// ```
/// The pager runs in snm's own process group (``ForegroundCommand``), so it owns the terminal
/// while it runs. Ctrl-C then belongs to it: the shell neither exits nor cancels anything.
enum Pager {
  /// The command to run: `$SNM_PAGER` when set (none when it is empty or `off`), else `$PAGER`
  /// when set and not empty, else `less -SRXF`.
  static func command(environment: [String: String] = ProcessInfo.processInfo.environment)
    -> String?
  {
    if let chosen = environment["SNM_PAGER"] {
      let trimmed = chosen.trimmingCharacters(in: .whitespaces)
      return trimmed.isEmpty || trimmed.lowercased() == "off" ? nil : chosen
    }
    if let pager = environment["PAGER"], !pager.trimmingCharacters(in: .whitespaces).isEmpty {
      return pager
    }
    return "less -SRXF"
  }

  /// Whether `text` has more lines than the terminal shows (leaving one for the prompt).
  static func isNeeded(for text: String, rows: Int = Terminal.rows()) -> Bool {
    var lines = 0
    for byte in text.utf8 where byte == 0x0A {
      lines += 1
      if lines >= rows { return true }
    }
    return false
  }

  /// Runs `command` (through `/bin/sh -c`) on `text` and waits for it, while SIGINT and SIGTERM
  /// from `signals` go to the pager alone; false when it could not start (it could not be spawned,
  /// or the shell could not find or run it: exit 126 or 127), so the caller prints `text` itself.
  static func show(_ text: String, through command: String, signals: InterruptSignals = .shared)
    async -> Bool
  {
    // The pager may quit before reading everything (`q`): a broken pipe is not an error.
    signal(SIGPIPE, SIG_IGN)
    guard let child = ForegroundCommand.spawn(command, pipingInput: true),
      let writer = child.input
    else { return false }
    return await signals.watch(onSignal: { _ in }) {
      writeAll(text, to: writer)
      close(writer)
      return !ForegroundCommand.couldNotStart(ForegroundCommand.wait(for: child.pid))
    }
  }

  /// Writes all of `text` to `fd`, stopping quietly when the reader has gone.
  private static func writeAll(_ text: String, to fd: Int32) {
    _ = FileDescriptorIO.writeAll(fd, Array(text.utf8))
  }
}
