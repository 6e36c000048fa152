import SNMQuery
import Testing

@testable import SNMShell

@Test func statementBufferJoinsLinesUntilComplete() {
  var buffer = StatementBuffer(isComplete: { !Lexer.needsContinuation($0) })
  #expect(buffer.add("from user_info insert {") == nil)
  #expect(buffer.pending == "from user_info insert {")
  #expect(buffer.add("  \"name\": \"Kim\"}") == "from user_info insert {\n  \"name\": \"Kim\"}")
  #expect(buffer.isEmpty)
  #expect(buffer.add("rpc sum {") == nil)
  buffer.reset()
  #expect(buffer.isEmpty && buffer.pending == "")
}
