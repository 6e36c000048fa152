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
