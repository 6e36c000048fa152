import Foundation
import Synchronization

/// Reads lines from standard input with no prompt, no editing and no escape codes.
///
/// Used when standard input is not a terminal (`echo 'from user_info select *' | snm`).
/// A `\r\n` line end is read as `\n`.
public final class PlainLineReader: LineReader {
  private let next: @Sendable () -> String?

  /// A reader of this process's standard input.
  public convenience init() {
    self.init { Swift.readLine(strippingNewline: true) }
  }

  /// A reader of `text`'s lines, as standard input would give them.
  public convenience init(text: String) {
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    if text.isEmpty || text.hasSuffix("\n") { lines.removeLast() }
    let queue = LineQueue(lines.map(String.init))
    self.init { queue.next() }
  }

  /// Standard input's text from where it is read next to its end when it is a regular file
  /// (`snm < a.snm`) of at most ``ScriptLoader/maximumBytes``, read now; else nil (a pipe, which
  /// is read as it comes, a device, a larger file, one that cannot be read).
  public static func wholeFileOnStandardInput() -> String? {
    var info = stat()
    guard fstat(STDIN_FILENO, &info) == 0, info.st_mode & S_IFMT == S_IFREG,
      Int(info.st_size) <= ScriptLoader.maximumBytes,
      let bytes = try? ScriptLoader.contents(of: "-")
    else { return nil }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// A reader over `next`, which returns one line (without its terminator) or nil at the end.
  public init(next: @escaping @Sendable () -> String?) {
    self.next = next
  }

  public var isInteractive: Bool { false }

  public func readLine(prompt: String, pending: String) -> LineInput {
    guard var line = next() else { return .end }
    if line.hasSuffix("\r") { line.removeLast() }
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
