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

  @Test func aLexersTokensAreTheWholeSourcesTokensAStatementAtATime() {
    let source = Source(text: "from t select *\nlet a = {\"k\": [1, 2,\n 3]}; echo $a\n")
    var lexer = Lexer(bytes: source.bytes, reserving: false)
    var windows: [Token] = []
    while !lexer.isFinished {
      lexer.buffer.removeAll()
      lexer.lexStatement()
      windows += lexer.tokens
    }
    #expect(windows == Lexer.tokenize(source).tokens)
  }
}
