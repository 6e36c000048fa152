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
