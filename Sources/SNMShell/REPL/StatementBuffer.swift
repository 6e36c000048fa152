import SNMQuery

/// Gathers typed or piped lines until they form complete statements, for the continuation prompt.
///
/// ```swift
/// var buffer = StatementBuffer()
/// buffer.add("from user_info insert {")   // nil: a `{` is open
/// buffer.add("  \"name\": \"Kim\"}")       // "from user_info insert {\n  \"name\": \"Kim\"}"
/// ```
/// Each line is lexed once as it comes (``ContinuationState``) and appended to the text so far:
/// a statement of many lines (a long JSON array piped in) costs in proportion to its length, not
/// to the square of its lines.
struct StatementBuffer {
  /// The unfinished text so far ("" when nothing is pending).
  private(set) var pending = ""
  /// How many lines `pending` holds.
  private(set) var lineCount = 0
  /// Whether every pending line is blank.
  private(set) var isEmpty = true
  private var state = ContinuationState()

  /// Adds a line; returns the whole text once it is complete, and starts over.
  mutating func add(_ line: String) -> String? {
    if lineCount > 0 { pending.append("\n") }
    pending.append(line)
    lineCount += 1
    if isEmpty && !line.allSatisfy(\.isWhitespace) { isEmpty = false }
    state = state.after(line)
    guard !state.needsContinuation else { return nil }
    let text = pending
    reset()
    return text
  }

  /// Drops what is pending (Ctrl-C).
  mutating func reset() {
    pending = ""
    lineCount = 0
    isEmpty = true
    state = ContinuationState()
  }
}
