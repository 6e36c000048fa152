import Foundation
import Testing

@testable import SNMShell

/// The password prompt on a real pseudo-terminal: nothing typed is echoed, editing keys work,
/// Ctrl-C cancels, and the terminal's modes come back as they were.
@Suite(.timeLimit(.minutes(1))) struct PasswordReaderTests {
  /// A pseudo-terminal pair: `master` is the keyboard and screen, `slave` the program's stdin.
  struct PTY {
    let master: Int32
    let slave: Int32
    /// The terminal's name (`/dev/pts/N`), which the program opens.
    let path: String

    init() throws {
      // /dev/ptmx by hand: Glibc's module leaves posix_openpt and friends out.
      master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
      var unlock: Int32 = 0
      var number: UInt32 = 0
      // Linux's TIOCSPTLCK and TIOCGPTN (_IOW/_IOR macros, which Swift does not import).
      guard master >= 0, ioctl(master, 0x4004_5431, &unlock) == 0,
        ioctl(master, 0x8004_5430, &number) == 0
      else { throw CocoaError(.fileNoSuchFile) }
      path = "/dev/pts/\(number)"
      slave = open(path, O_RDWR | O_NOCTTY)
      guard slave >= 0 else { throw CocoaError(.fileNoSuchFile) }
      _ = fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK)
    }

    func close() {
      _ = Foundation.close(slave)
      _ = Foundation.close(master)
    }

    func echoIsOn() -> Bool {
      var modes = termios()
      _ = tcgetattr(slave, &modes)
      return modes.c_lflag & tcflag_t(ECHO) != 0
    }

    func type(_ bytes: [UInt8]) {
      _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
    }

    /// Waits until the terminal shows `text` (what the reader says goes to it in these tests).
    func waitToSee(_ text: String) {
      var shown: [UInt8] = []
      var spins = 0
      while !String(decoding: shown, as: UTF8.self).contains(text) && spins < 5_000_000 {
        shown += screen()
        spins += 1
      }
    }

    /// Whatever the terminal shows (echo), without waiting.
    func screen() -> [UInt8] {
      var buffer = [UInt8](repeating: 0, count: 256)
      let count = buffer.withUnsafeMutableBytes { read(master, $0.baseAddress, $0.count) }
      return count > 0 ? Array(buffer[0..<count]) : []
    }
  }

  /// Starts the reader on its own thread, waits until it turned echo off, types `keys`, and
  /// `then` once the reader says it asks again (it drops the keys typed before it says so).
  func readPassword(typing keys: [UInt8], then more: [UInt8] = [], on pty: PTY) async
    -> PasswordReader.Answer
  {
    await withCheckedContinuation { continuation in
      let thread = Thread {
        continuation.resume(
          returning: PasswordReader.answer(
            prompt: "", fd: pty.slave, messages: more.isEmpty ? STDERR_FILENO : pty.slave))
      }
      thread.start()
      var spins = 0
      while pty.echoIsOn() && spins < 5_000_000 { spins += 1 }
      pty.type(keys)
      guard !more.isEmpty else { return }
      pty.waitToSee("type it again")
      pty.type(more)
    }
  }

  @Test func typedCharactersAreNotEchoedAndBackspaceErases() async throws {
    let pty = try PTY()
    defer { pty.close() }
    #expect(pty.echoIsOn())
    let password = await readPassword(typing: Array("hunter2é\u{7f}3\n".utf8), on: pty)
    #expect(password == .typed("hunter23"))
    #expect(pty.screen() == [])
    #expect(pty.echoIsOn())  // restored
  }

  @Test func ctrlCCancels() async throws {
    let pty = try PTY()
    defer { pty.close() }
    #expect(await readPassword(typing: Array("abc".utf8) + [0x03], on: pty) == .cancelled)
    #expect(pty.echoIsOn())
  }

  /// Ctrl-D on an empty line is the person's answer, not a missing terminal: the statement says
  /// none was typed (it said "type it at a terminal", at a terminal).
  @Test func ctrlDOnAnEmptyLineEndsTheAnswer() async throws {
    let pty = try PTY()
    defer { pty.close() }
    #expect(await readPassword(typing: [0x04], on: pty) == .ended)
    #expect(pty.echoIsOn())
  }

  /// A key that moves or edits elsewhere sends an escape sequence; read into the password it
  /// would send one no one meant (`abc` Left `xyz` was `abc\e[Dxyz`). What was typed is cleared
  /// and the keys after it dropped; the password typed again is the one taken.
  @Test(arguments: [
    "\u{1b}[D", "\u{1b}[A", "\u{1b}[H", "\u{1b}[4~", "\u{1b}OF", "\u{1b}[1;5C", "\u{1b}x", "\u{1b}",
  ])
  func aKeyThatEditsElsewhereClearsTheAnswer(key: String) async throws {
    let pty = try PTY()
    defer { pty.close() }
    let typed = await readPassword(
      typing: Array("abc\(key)xyz".utf8), then: Array("hunter2\n".utf8), on: pty)
    #expect(typed == .typed("hunter2"))
    #expect(pty.echoIsOn())
  }

  /// Ctrl-A (Home at a line editor) and the other control keys a terminal's own line does not
  /// edit with are refused the same way; Ctrl-W erases the word before, as the terminal's does.
  @Test func controlKeysOtherThanTheTerminalsOwnClearTheAnswer() async throws {
    let pty = try PTY()
    defer { pty.close() }
    let typed = await readPassword(
      typing: Array("abc\u{01}xyz".utf8), then: Array("one two\u{17}three\n".utf8), on: pty)
    #expect(typed == .typed("one three"))
  }

  /// A bracketed paste's marks are no keys: the text between them is the password.
  @Test func pasteMarksAreNotReadIntoThePassword() async throws {
    let pty = try PTY()
    defer { pty.close() }
    let typed = await readPassword(
      typing: Array("\u{1b}[200~pass word\u{1b}[201~\r".utf8), on: pty)
    #expect(typed == .typed("pass word"))
  }

  /// Bytes that are not UTF-8 (a terminal set to Latin-1) were sent as U+FFFD: another password
  /// than the one typed. The prompt asks again.
  @Test func bytesThatAreNotUTF8AreNotSent() async throws {
    let pty = try PTY()
    defer { pty.close() }
    let typed = await readPassword(
      typing: [0x63, 0x61, 0x66, 0xE9, 0x0A], then: [0x6F, 0x6B, 0x0A], on: pty)
    #expect(typed == .typed("ok"))
  }

  /// Ctrl-\ is a quit (``PasswordReader/read(prompt:fd:)`` then ends snm by SIGQUIT), not a
  /// byte of the password; the terminal is restored first.
  @Test func ctrlBackslashQuits() async throws {
    let pty = try PTY()
    defer { pty.close() }
    #expect(await readPassword(typing: Array("abc\u{1c}\n".utf8), on: pty) == .quit)
    #expect(pty.echoIsOn())
  }

  /// No terminal there (no controlling terminal: /dev/tty cannot be opened), or a file that is
  /// none: nothing is read, nothing asked.
  @Test func notATerminalGivesNoPassword() throws {
    #expect(PasswordReader.read(prompt: "", at: "/dev/null") == PasswordReader.Answer.none)
    #expect(PasswordReader.read(prompt: "", at: "/nonexistent/tty") == PasswordReader.Answer.none)
  }

  /// The prompt shows on the terminal the answer is read from, whatever standard error is (it
  /// went to standard error: `snm 2>/dev/null` hid it while it waited).
  @Test func thePromptShowsOnTheTerminalItReads() async throws {
    let pty = try PTY()
    defer { pty.close() }
    let answer = await withCheckedContinuation { continuation in
      Thread {
        continuation.resume(returning: PasswordReader.read(prompt: "secret? ", at: pty.path))
      }.start()
      pty.waitToSee("secret? ")
      var spins = 0
      while pty.echoIsOn() && spins < 5_000_000 { spins += 1 }
      pty.type(Array("hunter2\n".utf8))
    }
    #expect(answer == .typed("hunter2"))
    #expect(pty.echoIsOn())
  }
}
