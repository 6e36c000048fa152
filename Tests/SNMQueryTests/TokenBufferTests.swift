import Testing

@testable import SNMQuery

/// `TokenBuffer` keeps what an array of tokens kept: every token in order through growth past
/// its first room, the last, nothing after `removeAll` (and room kept), another array's tokens
/// after `replace(with:)`.
@Suite struct TokenBufferTests {
  static func token(_ index: Int) -> Token {
    Token(
      kind: index % 3 == 0 ? .word : .comma, keyword: index % 5 == 0 ? .from : nil,
      start: index, end: index + 1 + index % 7, flags: index % 2 == 0 ? [.afterSpace] : [])
  }

  @Test func tokensStayInOrderThroughGrowthRemovalAndReplacement() {
    let buffer = TokenBuffer(capacity: 1)
    var expected: [Token] = []
    for index in 0..<1_000 {
      buffer.append(TokenBufferTests.token(index))
      expected.append(TokenBufferTests.token(index))
      #expect(buffer.count == expected.count && buffer.last == expected.last)
    }
    #expect(buffer.array == expected)
    #expect((0..<1_000).allSatisfy { buffer[$0] == expected[$0] })
    buffer.removeAll()
    #expect(buffer.count == 0 && buffer.last == nil && buffer.array.isEmpty)
    buffer.append(TokenBufferTests.token(7))
    #expect(buffer.array == [TokenBufferTests.token(7)])
    buffer.replace(with: Array(expected.prefix(40)))
    #expect(buffer.array == Array(expected.prefix(40)))
  }

  /// Statements lexed ahead in passes (`Lexer.lexAhead()`): a pass ends at its room for
  /// statement ends, at the buffer's room (a statement longer than it grows it) or before a rare
  /// token that has no room left, and the window hands them over one by one all the same.
  static let sources: [String] = [
    "from t select *\nlet a = {\"k\": [1, 2,\n 3]}; echo $a\n",
    String(repeating: "a\n", count: 200), String(repeating: ";", count: 129),
    String(repeating: "from t select a, b -1 $x where _y eq 1\n", count: 90),
    "from t select " + Array(repeating: "a", count: 700).joined(separator: ", ") + "\nb\nc",
    String(repeating: "x\n", count: 63) + "from t insert {"
      + String(repeating: "\"k\": -1,\n", count: 400) + "}\nlast",
    (0..<300).map { "s\($0) " + String(repeating: "-1 ", count: $0 % 40) }.joined(separator: "\n"),
  ]

  @Test(arguments: sources)
  func aLexersTokensAreTheWholeSourcesTokensAStatementAtATime(_ text: String) {
    let source = Source(text: text)
    var lexer = Lexer(bytes: source.bytes, reserving: false)
    var windows: [Token] = []
    while !lexer.isFinished {
      lexer.buffer.removeAll()
      lexer.lexStatement()
      windows += lexer.tokens
      #expect(lexer.tokens.filter(\.kind.isStatementEnd).count == 1)
      #expect(lexer.tokens.last?.kind.isStatementEnd == true)
    }
    #expect(windows == Lexer.tokenize(source).tokens)
  }
}
