import Foundation
import Synchronization

/// Reads lines from standard input with no prompt, no editing and no escape codes.
///
/// Used when standard input is not a terminal (`echo 'from user_info select *' | snm`).
/// A `\r\n` line end is read as `\n`. Standard input that fails to be read (EIO from a device,
/// a descriptor closed at start) or is not UTF-8 text ends the input with ``LineInput/unreadable(_:)``,
/// never as if it had ended.
public final class PlainLineReader: LineReader {
  private let next: @Sendable () -> LineInput

  /// A reader of this process's standard input.
  public convenience init() {
    let lines = DescriptorLines(fd: STDIN_FILENO)
    self.init(input: { lines.next() })
  }

  /// A reader of `text`'s lines, as standard input would give them.
  public convenience init(text: String) {
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    if text.isEmpty || text.hasSuffix("\n") { lines.removeLast() }
    let queue = LineQueue(lines.map(String.init))
    self.init { queue.next() }
  }

  /// Standard input's text from where it is read next to its end when it is a regular file
  /// (`snm < a.snm`) of at most ``ScriptLoader/maximumBytes``, read now; nil for what is read as
  /// it comes (a pipe, a device, a larger file).
  /// - Throws: ``ScriptLoadError`` as `snm -` says it: a directory (read as an empty input, it
  ///   ended with exit 0), a file that cannot be read or is not UTF-8 text.
  public static func wholeFileOnStandardInput() throws(ScriptLoadError) -> String? {
    var info = stat()
    guard fstat(STDIN_FILENO, &info) == 0 else { return nil }
    switch info.st_mode & S_IFMT {
    case S_IFDIR: throw .isDirectory("-")
    case S_IFREG where Int(info.st_size) <= ScriptLoader.maximumBytes:
      guard let text = String(validating: try ScriptLoader.contents(of: "-"), as: UTF8.self)
      else { throw .notText("-") }
      return text
    default: return nil
    }
  }

  /// A reader over `next`, which returns one line (without its terminator) or nil at the end.
  public convenience init(next: @escaping @Sendable () -> String?) {
    self.init(input: { next().map(LineInput.line) ?? .end })
  }

  private init(input: @escaping @Sendable () -> LineInput) {
    self.next = input
  }

  public var isInteractive: Bool { false }

  public func readLine(prompt: String, pending: String) -> LineInput {
    let input = next()
    guard case .line(var line) = input, line.hasSuffix("\r") else { return input }
    line.removeLast()
    return .line(line)
  }

  public func remember(_ statement: String) {}
}

/// Lines handed out once each, first to last.
private final class LineQueue: Sendable {
  private let lines: Mutex<ArraySlice<String>>

  init(_ lines: [String]) {
    self.lines = Mutex(lines[...])
  }

  func next() -> String? {
    lines.withLock { $0.popFirst() }
  }
}

/// The lines of a file descriptor as `read(2)` gives them, the end told apart from a failure: a
/// device's EIO or a descriptor closed at start (main.swift holds it with /dev/null opened
/// write-only: EBADF) ended the input as if it had ended, and snm exited 0 having run part of it.
/// A line that is not UTF-8 is refused, as a file on standard input is (it went on with U+FFFD
/// in its place). Read on one thread at a time (the prompt loop's).
final class DescriptorLines: Sendable {
  private struct State {
    var buffer: [UInt8] = []
    /// Where the next line starts in `buffer`.
    var start = 0
    /// Where the search for the next line's `\n` goes on: bytes before it were looked at (a long
    /// line coming in many reads is searched once, not again from its start after each read).
    var searched = 0
    var ended = false
    var failure: ScriptLoadError?
  }

  private let fd: Int32
  private let state = Mutex(State())
  /// The longest line read: a script's limit (``ScriptLoader/maximumBytes``).
  static let maximumLineBytes = ScriptLoader.maximumBytes

  init(fd: Int32) {
    self.fd = fd
  }

  /// The next line without its `\n`, the end, or why no more can be read (a line cut short by
  /// a failure is not handed out: the input it belongs to is lost).
  func next() -> LineInput {
    state.withLock { state in
      while true {
        let from = max(state.start, state.searched)
        if let newline = state.buffer[from...].firstIndex(of: UInt8(ascii: "\n")) {
          defer { state.start = newline + 1 }
          return Self.line(state.buffer[state.start..<newline])
        }
        state.searched = state.buffer.count
        if let failure = state.failure { return .unreadable(failure) }
        // A line longer than a whole script may be (`snm < /dev/zero`) is refused: it was read
        // on without end, until the memory ran out and the kernel killed snm.
        if state.buffer.count - state.start > Self.maximumLineBytes {
          state.failure = .tooLarge("-", bytes: nil, limit: Self.maximumLineBytes)
          continue
        }
        if state.ended {
          guard state.start < state.buffer.count else { return .end }
          defer { state.start = state.buffer.count }
          return Self.line(state.buffer[state.start...])
        }
        if state.start > 0 {
          state.buffer.removeSubrange(0..<state.start)
          state.searched -= state.start
          state.start = 0
        }
        fill(&state)
      }
    }
  }

  /// Reads what is there (waiting for it), noting the end or the failure.
  private func fill(_ state: inout State) {
    let room = 65_536
    let old = state.buffer.count
    state.buffer.append(contentsOf: repeatElement(0, count: room))
    while true {
      let got = state.buffer.withUnsafeMutableBytes { bytes in
        read(fd, bytes.baseAddress.map { $0 + old }, room)
      }
      if got >= 0 {
        state.buffer.removeLast(room - got)
        state.ended = got == 0
        return
      }
      let code = errno
      if code == EINTR { continue }
      if code == EAGAIN {  // a descriptor shared with a program that set it non-blocking
        var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        _ = poll(&ready, 1, -1)
        continue
      }
      state.buffer.removeLast(room)
      state.failure = .unreadable("-", errno: code)
      return
    }
  }

  private static func line(_ bytes: ArraySlice<UInt8>) -> LineInput {
    guard let text = String(validating: bytes, as: UTF8.self) else {
      return .unreadable(.notText("-"))
    }
    return .line(text)
  }
}
