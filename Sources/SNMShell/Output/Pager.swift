import Foundation

/// Shows long output through `$PAGER` (else `less -SRXF`) when standard output is a terminal.
///
/// ```swift
/// if Pager.isNeeded(for: text) { await Pager.show(text) } else { print(text) }
/// ```
/// While the pager runs, Ctrl-C belongs to it: the shell neither exits nor cancels anything.
enum Pager {
  /// The command to run: `$PAGER` when set and not empty, else `less -SRXF`.
  static func command(environment: [String: String] = ProcessInfo.processInfo.environment)
    -> String
  {
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

  /// Runs the pager on `text` and waits for it, while SIGINT and SIGTERM from `signals` go to the
  /// pager alone; returns false when it could not start.
  static func show(_ text: String, signals: InterruptSignals = .shared) async -> Bool {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", command()]
    let input = Pipe()
    process.standardInput = input
    do {
      try process.run()
    } catch {
      return false
    }
    return await signals.watch(onSignal: { _ in }) {
      let writer = input.fileHandleForWriting
      // The pager may quit before reading everything (`q`): a broken pipe is not an error.
      signal(SIGPIPE, SIG_IGN)
      try? writer.write(contentsOf: Data(text.utf8))
      try? writer.close()
      process.waitUntilExit()
      return true
    }
  }
}
