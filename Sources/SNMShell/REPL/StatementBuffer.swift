/// Gathers typed lines until they form complete statements, for the continuation prompt.
///
/// ```swift
/// var buffer = StatementBuffer(isComplete: { !Lexer.needsContinuation($0) })
/// buffer.add("from user_info insert {")   // nil: a `{` is open
/// buffer.add("  \"name\": \"Kim\"}")       // "from user_info insert {\n  \"name\": \"Kim\"}"
/// ```
struct StatementBuffer {
  private(set) var lines: [String] = []
  let isComplete: @Sendable (String) -> Bool

  /// The unfinished text so far ("" when nothing is pending).
  var pending: String { lines.joined(separator: "\n") }

  /// Whether nothing is pending (blank lines count as nothing).
  var isEmpty: Bool { lines.allSatisfy { $0.allSatisfy(\.isWhitespace) } }

  /// Adds a line; returns the whole text once it is complete, and starts over.
  mutating func add(_ line: String) -> String? {
    lines.append(line)
    let text = pending
    guard isComplete(text) else { return nil }
    lines.removeAll()
    return text
  }

  /// Drops what is pending (Ctrl-C).
  mutating func reset() {
    lines.removeAll()
  }
}
