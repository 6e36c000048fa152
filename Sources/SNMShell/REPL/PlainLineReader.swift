import Foundation

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
