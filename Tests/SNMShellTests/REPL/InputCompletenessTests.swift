import Testing

@testable import SNMShell

struct CompletenessCase: Sendable, CustomStringConvertible {
  let text: String
  let complete: Bool
  var description: String { text }
}

@Test(arguments: [
  CompletenessCase(text: "from user_info select *", complete: true),
  CompletenessCase(text: "from user_info insert {", complete: false),
  CompletenessCase(text: "from user_info insert {\"name\": \"Kim\"", complete: false),
  CompletenessCase(text: "from user_info insert {\n\"name\": \"Kim\"}", complete: true),
  CompletenessCase(text: "from user_info select id,\\", complete: false),
  CompletenessCase(text: "from user_info select id, \\  ", complete: false),
  CompletenessCase(text: "from user_info select * where id in (1,", complete: false),
  CompletenessCase(text: "rpc sum {\"numbers\": [1, 2,", complete: false),
  CompletenessCase(text: "echo 'a ( b'", complete: true),
  CompletenessCase(text: "echo \"{\"", complete: true),
  CompletenessCase(text: "from t select * # open ( in a comment", complete: true),
  CompletenessCase(text: "from t select * -- {", complete: true),
  CompletenessCase(text: "echo 'it''s'", complete: true),
  CompletenessCase(text: "echo 'unterminated", complete: true),
  CompletenessCase(text: "from t insert {\"a\": \"x}\"", complete: false),
])
func continuationFollowsBracketsStringsAndBackslash(_ item: CompletenessCase) {
  #expect(InputCompleteness.isComplete(item.text) == item.complete)
}

@Test func statementBufferJoinsLinesUntilComplete() {
  var buffer = StatementBuffer(isComplete: InputCompleteness.isComplete)
  #expect(buffer.add("from user_info insert {") == nil)
  #expect(buffer.pending == "from user_info insert {")
  #expect(buffer.add("  \"name\": \"Kim\"}") == "from user_info insert {\n  \"name\": \"Kim\"}")
  #expect(buffer.isEmpty)
  #expect(buffer.add("rpc sum {") == nil)
  buffer.reset()
  #expect(buffer.isEmpty && buffer.pending == "")
}
