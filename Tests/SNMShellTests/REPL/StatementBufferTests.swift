import SNMQuery
import Testing

@testable import SNMShell

@Test func statementBufferJoinsLinesUntilComplete() {
  var buffer = StatementBuffer()
  #expect(buffer.add("from user_info insert {") == nil)
  #expect(buffer.pending == "from user_info insert {")
  #expect(buffer.add("  \"name\": \"Kim\"}") == "from user_info insert {\n  \"name\": \"Kim\"}")
  #expect(buffer.isEmpty)
  #expect(buffer.add("rpc sum {") == nil)
  buffer.reset()
  #expect(buffer.isEmpty && buffer.pending == "")
}

@Test func statementBufferAgreesWithTheWholeTextsLexingLineByLine() {
  // ContinuationState lexes each line once; it must say what lexing the lines joined says.
  let fragments = [
    "from t insert {", "}", "[", "]", "(", ")", "\"{\"", "'(", "# {", "-- [", "a \\", "\\",
    ";", "1,", "\"a\": [1, {", "}]}", "rpc f {\"x\": \"]\"}", "", "  ", "\\d", "x\\ {",
  ]
  var generator = SystemRandomNumberGenerator()
  for _ in 0..<2_000 {
    var buffer = StatementBuffer()
    var lines: [String] = []
    for _ in 0..<Int.random(in: 1...6, using: &generator) {
      let line = (0..<Int.random(in: 0...3, using: &generator))
        .map { _ in fragments.randomElement(using: &generator)! }.joined(separator: " ")
      lines.append(line)
      let whole = lines.joined(separator: "\n")
      let complete = buffer.add(line)
      #expect(
        (complete != nil) == !Lexer.needsContinuation(whole), "lines: \(lines)")
      if complete != nil {
        #expect(complete == whole)
        lines.removeAll()
      }
    }
  }
}
