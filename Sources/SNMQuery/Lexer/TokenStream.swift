/// The lexer's output: every token of a source, ending with `.endOfFile`.
public struct TokenStream: Sendable {
  public var tokens: [Token]
  /// The source ends inside an unclosed `(`, `[` or `{`: a prompt should ask for another line.
  public var endsInsideBrackets: Bool
  /// The source ends with a trailing `\`: a prompt should ask for another line.
  public var endsWithContinuation: Bool

  /// Whether the last statement is unfinished and a prompt should read a continuation line.
  public var needsContinuation: Bool { endsInsideBrackets || endsWithContinuation }
}

extension Lexer {
  /// Whether `text` ends inside an unclosed bracket or after a trailing `\`, so a prompt should read
  /// a continuation line before running it.
  ///
  /// ```swift
  /// Lexer.needsContinuation("from t insert {\"a\":")   // true
  /// Lexer.needsContinuation("from t select *")          // false
  /// ```
  /// Strings end on their line: an unclosed quote is reported by the parser, not continued.
  public static func needsContinuation(_ text: String) -> Bool {
    tokenize(Source(text: text)).needsContinuation
  }
}

/// Where a prompt stands after the lines typed or piped so far: whether the statement they make
/// needs another line. Kept line by line, so gathering a long statement lexes each line once
/// (``Lexer/needsContinuation(_:)`` lexes the whole text it is given).
///
/// ```swift
/// var state = ContinuationState()
/// state = state.after("from t insert {\"a\": [")   // state.needsContinuation == true
/// state = state.after("1, 2]}")                     // state.needsContinuation == false
/// ```
/// A line's lexing depends on the lines before it only through the brackets left open and a
/// trailing `\` (strings and comments end on their line), so `after` gives what
/// `needsContinuation` gives for the lines joined with newlines. A trailing `\` takes the newline
/// after it: an empty line after one leaves the text ending in a continuation still.
public struct ContinuationState: Sendable, Equatable {
  /// The brackets open after the lines so far.
  private var depth = 0
  /// The last line ends with a `\`.
  private var backslashAtEnd = false
  /// Whether the statement so far is unfinished (a bracket open, or a trailing `\`).
  public private(set) var needsContinuation = false

  public init() {}

  /// The state after one more line (its text, without the newline).
  public func after(_ line: String) -> ContinuationState {
    var lexer = Lexer(bytes: Array(line.utf8), reserving: false)
    lexer.depth = depth
    lexer.run()
    var next = ContinuationState()
    next.depth = lexer.depth
    next.backslashAtEnd = lexer.continuationAtEnd
    next.needsContinuation =
      lexer.depth > 0 || lexer.continuationAtEnd || (backslashAtEnd && line.utf8.isEmpty)
    return next
  }
}
