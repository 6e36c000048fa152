import Foundation
import SNMWire

/// Reads a password from the terminal without echoing it.
///
/// ```swift
/// switch PasswordReader.read(prompt: "password for kim@example.com: ") {
/// case .typed(let password): ...
/// case .cancelled: ...     // Ctrl-C: the statement is cancelled (exit 130), nothing is sent
/// case .ended: ...         // Ctrl-D on an empty line: nothing was typed
/// case .none: ...          // no terminal: say how else to give it
/// }
/// ```
/// It asks at the controlling terminal (`/dev/tty`), and reads the answer from it, as sudo, ssh
/// and psql do: the prompt wrote to standard error, so `snm 2>/dev/null` hid it while it waited
/// (and `2>log` wrote it into the log). Standard input is never read for a password: a pipe's
/// next line is a statement, not an answer (scripts pass `password '...'` or `password
/// $env.NAME`). With no controlling terminal (cron, CI, `setsid`) nothing is asked. The
/// terminal's echo setting is always restored. The password never goes to the history or
/// anywhere else.
///
/// The prompt edits as a terminal's own line does (Backspace, Ctrl-U, Ctrl-W) and nothing more:
/// a key that moves or edits elsewhere (an arrow, Home, End, Delete, Esc, Alt-x, Ctrl-A...) would
/// leave an answer no one can see differing from the one meant, so it is never read into it; what
/// was typed is cleared, the prompt says which key and asks again. Ctrl-\ quits snm as it does
/// during a request (SIGQUIT): nothing is sent or stored, and snm leaves no core file.
enum PasswordReader {
  /// What the person did at the prompt.
  enum Answer: Equatable {
    /// Typed this and pressed Enter.
    case typed(String)
    /// Pressed Ctrl-C.
    case cancelled
    /// Pressed Ctrl-D on an empty line: the person chose to type nothing.
    case ended
    /// Pressed Ctrl-\ (``read(prompt:fd:)`` never returns it: snm quits).
    case quit
    /// Nothing to read: no controlling terminal (or the terminal could not be read).
    case none
    /// snm runs in the background of its terminal, where no shell can bring it to the front.
    case background
  }

  /// What was typed at the controlling terminal, asked there; Ctrl-\ ends snm here.
  static func read(prompt: String) -> Answer {
    read(prompt: prompt, at: "/dev/tty")
  }

  /// What was typed at the terminal `path`, asked there (``Answer/none`` when it cannot be
  /// opened or is no terminal); Ctrl-\ ends snm here.
  static func read(prompt: String, at path: String) -> Answer {
    let terminal = open(path, O_RDWR | O_NOCTTY | O_CLOEXEC)
    guard terminal >= 0 else { return .none }
    defer { close(terminal) }
    let answer = answer(prompt: prompt, fd: terminal, messages: terminal)
    if answer == .quit { JobStop.quitAsTheTerminalWould() }
    return answer
  }

  /// What was typed at the terminal `fd`, Ctrl-\ as ``Answer/quit``; the terminal is restored.
  /// The prompt and what it says go to `messages`.
  static func answer(prompt: String, fd: Int32, messages: Int32 = STDERR_FILENO) -> Answer {
    func say(_ text: String) {
      _ = Array(text.utf8).withUnsafeBytes { FileDescriptorIO.writeAll(messages, $0) }
    }
    guard isatty(fd) != 0 else { return .none }
    // A background job (`snm -c 'login ...' &`) waits, stopped, until `fg` gives it the terminal.
    guard JobStop.waitForTheForeground(of: fd) else { return .background }
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
    // The terminal first, then the prompt: a background job stops here (SIGTTOU), before it
    // says anything, and asks once `fg` brought it back.
    guard tcsetattr(fd, TCSAFLUSH, &silent) == 0 else { return .none }
    say(prompt)
    defer {
      _ = tcsetattr(fd, TCSAFLUSH, &saved)
      say("\n")
    }
    let bytes = TypedAnswer()
    /// Clears what was typed, drops the keys typed after it, says why and asks again.
    func askAgain(_ why: String) {
      bytes.clear()
      _ = tcflush(fd, TCIFLUSH)
      say("\n\(why)\n\(prompt)")
    }
    while true {
      guard let byte = PromptKey.byte(from: fd) else { return .none }
      switch byte {
      case UInt8(ascii: "\n"), UInt8(ascii: "\r"):
        guard let text = bytes.text else {
          askAgain(
            "snm: what was typed is not UTF-8 (is the terminal set to another encoding?); "
              + "it was cleared: type it again")
          continue
        }
        return .typed(text)
      case 0x03:  // Ctrl-C
        return .cancelled
      case 0x1c:  // Ctrl-\
        return .quit
      case 0x04:  // Ctrl-D
        if bytes.isEmpty { return .ended }
      case 0x7f, 0x08:  // erase one character (all its UTF-8 bytes)
        while let last = bytes.removeLast(), last & 0xC0 == 0x80 {}
      case 0x15:  // Ctrl-U
        bytes.clear()
      case 0x17:  // Ctrl-W: the word before, and the spaces after it, as the terminal's own line
        while bytes.last == UInt8(ascii: " ") { bytes.removeLast() }
        while let last = bytes.last, last != UInt8(ascii: " ") { bytes.removeLast() }
      case 0x1a:  // Ctrl-Z: the job stops as at snm's prompt, in the terminal's own mode; once
        // continued the prompt asks again from the start (it was read into the password).
        _ = tcsetattr(fd, TCSAFLUSH, &saved)
        say("^Z\n")
        JobStop.stopAsTheTerminalWould()
        _ = tcsetattr(fd, TCSAFLUSH, &silent)
        say(prompt)
        bytes.clear()
      case 0x1b:  // an arrow, Home, End...: a key sends its escape sequence at once
        guard let key = PromptKey.afterEscape(from: fd) else { continue }  // a paste's marks
        askAgain(
          "snm: \(key) cannot edit a hidden answer; what was typed is cleared: type it again")
      case 0x09, 0x20...:
        guard bytes.append(byte) else {
          askAgain(
            "snm: the answer is longer than \(TypedAnswer.capacity) bytes, more than a password "
              + "may be; it was cleared: type it again")
          continue
        }
      default:
        askAgain(
          "snm: \(PromptKey.control(byte)) cannot edit a hidden answer (Backspace, Ctrl-U and "
            + "Ctrl-W can); what was typed is cleared: type it again")
      }
    }
  }
}

/// What was typed at the password prompt, in room of its own, zeroed when a key erases, when it
/// is cleared and before it is given back. It never grows: an Array left the answer in freed
/// memory (a copy of its start at each growth, an erased byte past its end), and a copy's vector
/// registers were saved on the stack by the next call the dynamic linker bound.
final class TypedAnswer {
  /// The longest answer: a page, far past any password (Supabase Auth takes 72 bytes).
  static let capacity = 4096
  private let room: UnsafeMutableBufferPointer<UInt8>
  private(set) var count = 0

  init() {
    room = .allocate(capacity: Self.capacity)
    Self.zero(room)
  }

  deinit {
    Self.zero(room)
    room.deallocate()
  }

  var isEmpty: Bool { count == 0 }
  var last: UInt8? { count > 0 ? room[count - 1] : nil }

  /// What was typed, if it is UTF-8.
  var text: String? {
    String(validating: UnsafeBufferPointer(rebasing: room[..<count]), as: UTF8.self)
  }

  /// Adds `byte`; false when the room is full (nothing added).
  func append(_ byte: UInt8) -> Bool {
    guard count < room.count else { return false }
    room[count] = byte
    count += 1
    return true
  }

  /// Removes the last byte, zeroed where it was; nil when nothing was typed.
  @discardableResult
  func removeLast() -> UInt8? {
    guard count > 0 else { return nil }
    count -= 1
    defer { room[count] = 0 }
    return room[count]
  }

  /// Zeroes all that was typed.
  func clear() {
    Self.zero(room)
    count = 0
  }

  private static func zero(_ room: UnsafeMutableBufferPointer<UInt8>) {
    WipedMemory.zero(UnsafeMutableRawBufferPointer(room))
  }
}

/// The keys at the password prompt: bytes as they come, and which key an escape sequence is.
enum PromptKey {
  /// The next byte typed, nil at the end or on an error.
  static func byte(from fd: Int32) -> UInt8? {
    var byte: UInt8 = 0
    while true {
      let count = Foundation.read(fd, &byte, 1)
      if count < 0 && errno == EINTR { continue }
      return count == 1 ? byte : nil
    }
  }

  /// The key whose sequence began with the Esc just read, by name ("the Left arrow key"); nil
  /// for a bracketed paste's start and end marks (`ESC [ 200 ~`, `ESC [ 201 ~`), which are no
  /// key. A terminal writes a key's sequence at once: a byte not there within 100 ms is a lone Esc.
  static func afterEscape(from fd: Int32) -> String? {
    guard let introducer = following(fd) else { return "the Esc key" }
    switch introducer {
    case UInt8(ascii: "["):  // CSI: parameters and intermediates, then one final byte
      var body: [UInt8] = []
      while body.count < 32, let byte = following(fd) {
        body.append(byte)
        if (0x40...0x7e).contains(byte) { break }
      }
      if body == Array("200~".utf8) || body == Array("201~".utf8) { return nil }
      return name(of: body)
    case UInt8(ascii: "O"):  // SS3: one final byte (arrows in the keypad's application mode)
      return name(of: following(fd).map { [$0] } ?? [])
    case 0x21...0x7e:
      return "Alt-\(Character(Unicode.Scalar(introducer)))"
    case 0x20:
      return "Alt-Space"
    case 0x7f, 0x08:
      return "Alt-Backspace"
    case 0xC2...0xF4:  // Alt with a key that types a character past ASCII (Alt-é: ESC C3 A9)
      return altCharacter(startingWith: introducer, from: fd) ?? "the Esc key"
    default:
      return "the Esc key"
    }
  }

  /// `Alt-é` for the UTF-8 character whose first byte is `lead`, the rest read as the terminal
  /// sends them; its hidden characters escaped (`Alt-\u{202E}`). Nil when they do not follow.
  private static func altCharacter(startingWith lead: UInt8, from fd: Int32) -> String? {
    let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
    var sequence = [lead]
    while sequence.count < length, let byte = following(fd), byte & 0xC0 == 0x80 {
      sequence.append(byte)
    }
    guard sequence.count == length, let text = String(validating: sequence, as: UTF8.self)
    else { return nil }
    return "Alt-" + VisibleTextLine.escaped(text)
  }

  /// A control byte by the key that sends it: 0x01 is "Ctrl-A".
  static func control(_ byte: UInt8) -> String {
    byte == 0 ? "Ctrl-Space" : "Ctrl-\(Character(Unicode.Scalar(byte | 0x40)))"
  }

  private static func name(of sequence: [UInt8]) -> String {
    let names: [String: String] = [
      "A": "the Up arrow key", "B": "the Down arrow key", "C": "the Right arrow key",
      "D": "the Left arrow key", "H": "the Home key", "F": "the End key", "1~": "the Home key",
      "7~": "the Home key", "4~": "the End key", "8~": "the End key", "2~": "the Insert key",
      "3~": "the Delete key", "5~": "the Page Up key", "6~": "the Page Down key",
    ]
    let text = String(decoding: sequence, as: UTF8.self)
    // With a modifier the same key: `1;5D` is Ctrl-Left, `3;2~` Shift-Delete.
    guard let semicolon = text.firstIndex(of: ";"), let final = text.last else {
      return names[text] ?? "that key"
    }
    let key = final == "~" ? text[..<semicolon] + "~" : String(final)
    return names[key] ?? "that key"
  }

  /// The byte after, if the terminal sends one within 100 ms.
  private static func following(_ fd: Int32) -> UInt8? {
    var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    while true {
      let count = poll(&ready, 1, 100)
      if count < 0 && errno == EINTR { continue }
      guard count == 1 else { return nil }
      return byte(from: fd)
    }
  }
}
