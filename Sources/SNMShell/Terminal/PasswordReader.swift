import Foundation

/// Reads a password from the terminal without echoing it.
///
/// ```swift
/// switch PasswordReader.read(prompt: "password for kim@example.com: ") {
/// case .typed(let password): ...
/// case .cancelled: ...     // Ctrl-C: the statement is cancelled (exit 130), nothing is sent
/// case .ended: ...         // Ctrl-D on an empty line: nothing was typed
/// case .none: ...          // not a terminal: say how else to give it
/// }
/// ```
/// Nothing is read when standard input is not a terminal (scripts pass `password '...'` or
/// `password $env.NAME` instead). The terminal's echo setting is always restored. The password
/// never goes to the history or anywhere else.
enum PasswordReader {
  /// What the person did at the prompt.
  enum Answer: Equatable {
    /// Typed this and pressed Enter.
    case typed(String)
    /// Pressed Ctrl-C.
    case cancelled
    /// Pressed Ctrl-D on an empty line: the person chose to type nothing.
    case ended
    /// Nothing to read: not a terminal (or the terminal could not be read).
    case none
  }

  /// What was typed at the terminal on standard input.
  static func read(prompt: String, fd: Int32 = STDIN_FILENO) -> Answer {
    guard isatty(fd) != 0 else { return .none }
    var saved = termios()
    guard tcgetattr(fd, &saved) == 0 else { return .none }
    // Byte at a time, no echo, no signals: Ctrl-C arrives as a byte, so the terminal is always
    // restored (a SIGINT would end the process with echo still off).
    var silent = saved
    silent.c_lflag &= ~tcflag_t(ECHO | ECHONL | ICANON | ISIG)
    withUnsafeMutableBytes(of: &silent.c_cc) { cc in
      cc[Int(VMIN)] = 1
      cc[Int(VTIME)] = 0
    }
    FileHandle.standardError.write(Data(prompt.utf8))
    guard tcsetattr(fd, TCSAFLUSH, &silent) == 0 else { return .none }
    defer {
      _ = tcsetattr(fd, TCSAFLUSH, &saved)
      FileHandle.standardError.write(Data("\n".utf8))
    }
    var bytes: [UInt8] = []
    var byte: UInt8 = 0
    while true {
      let count = Foundation.read(fd, &byte, 1)
      if count < 0 && errno == EINTR { continue }
      guard count == 1 else { return .none }
      switch byte {
      case UInt8(ascii: "\n"), UInt8(ascii: "\r"):
        return .typed(String(decoding: bytes, as: UTF8.self))
      case 0x03:  // Ctrl-C
        return .cancelled
      case 0x04:  // Ctrl-D
        if bytes.isEmpty { return .ended }
      case 0x7f, 0x08:  // erase one character (all its UTF-8 bytes)
        while let last = bytes.popLast(), last & 0xC0 == 0x80 {}
      case 0x15:  // Ctrl-U
        bytes.removeAll()
      case 0x1a:  // Ctrl-Z: the job stops as at snm's prompt, in the terminal's own mode; once
        // continued the prompt asks again from the start (it was read into the password).
        _ = tcsetattr(fd, TCSAFLUSH, &saved)
        FileHandle.standardError.write(Data("^Z\n".utf8))
        JobStop.stopAsTheTerminalWould()
        _ = tcsetattr(fd, TCSAFLUSH, &silent)
        FileHandle.standardError.write(Data(prompt.utf8))
        bytes.removeAll()
      default:
        bytes.append(byte)
      }
    }
  }
}
