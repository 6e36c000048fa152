import Testing

@testable import SNMShell

struct HistoryCase: Sendable, CustomStringConvertible {
  let statement: String
  let recorded: Bool
  var description: String { statement }
}

@Test(arguments: [
  HistoryCase(statement: "from user_info select *", recorded: true),
  HistoryCase(statement: "login email 'kim@example.com'", recorded: true),
  HistoryCase(statement: "login email 'kim@example.com' password 'hunter2'", recorded: false),
  HistoryCase(statement: "signup email 'a@b.c' PASSWORD 'x'", recorded: false),
  HistoryCase(statement: "let t = $session.access_token", recorded: false),
  HistoryCase(statement: "from keys insert {\"apikey\": \"x\"}", recorded: false),
  HistoryCase(
    statement: "echo 'eyJhbGciOiJIUzI1NiJ9.eyJyb2xlIjoiYW5vbiJ9.c2lnbmF0dXJl'", recorded: false),
  HistoryCase(statement: "from user_info select * where id eq 3", recorded: true),
  HistoryCase(statement: "   ", recorded: false),
])
func historyKeepsOnlyStatementsWithoutSecrets(_ item: HistoryCase) {
  #expect(HistoryPolicy.mayRecord(item.statement) == item.recorded)
}
