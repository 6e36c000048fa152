import SNMNetwork
import SNMSupabase
import Testing

@testable import SNMQuery

/// `all` (a select read a page at a time past the server's row cap): the grammar, the checker,
/// the pages the compiler builds and what `explain` says of them.
@Suite struct PagingTests {
  @Test(arguments: [
    CanonicalCase("from t select id all", "from t select id all"),
    CanonicalCase("from t select * all order by a", "from t select * order by a all"),
    CanonicalCase(
      "from t select * where a gt 1 all offset 5 > 'x.csv'",
      #"from t select * where a gt 1 offset 5 all > "x.csv""#),
  ])
  func allParsesAmongTheModifiers(_ testCase: CanonicalCase) {
    #expect(canonical(testCase.input) == testCase.canonical)
  }

  struct RefusalCase: Sendable, CustomTestStringConvertible {
    var statement: String
    var ids: [String]
    var testDescription: String { statement }
    init(_ statement: String, _ ids: [String]) {
      self.statement = statement
      self.ids = ids
    }
  }

  @Test(arguments: [
    RefusalCase("from t select * limit 5 all", ["all-with-clause"]),
    RefusalCase("from t select * all single", ["all-with-clause"]),
    RefusalCase("from t select * count exact head all", ["all-with-clause"]),
    RefusalCase("from t select * all plan", ["all-with-clause"]),
    RefusalCase("from t delete where id eq 1 all", ["clause-not-allowed"]),
    RefusalCase(#"from t insert {"a": 1} all"#, ["clause-not-allowed"]),
    RefusalCase("rpc f all", ["clause-not-allowed"]),
    RefusalCase("rpc get f all", ["clause-not-allowed"]),
    RefusalCase("from t select * all all", ["duplicate-clause"]),
    // `all` still quantifies a filter's values, and `where all` is still for writes
    RefusalCase("from t select * where a eq all [1, 2] all", []),
    RefusalCase("from t delete where all", []),
    RefusalCase("from t select * where all", ["where-all-not-allowed"]),
  ])
  func allIsOnlyForASelectThatNothingBounds(_ testCase: RefusalCase) {
    #expect(parseAndCheck(testCase.statement).errors == testCase.ids)
  }

  @Test func completionOffersAllAfterTheColumnsAndTheFilters() {
    for text in ["from user_info select id ", "from user_info select id where age gt 3 "] {
      let context = CompletionContext.at(offset: text.utf8.count, in: text)
      #expect(context.keywords.contains("all"), "\(text)")
    }
  }

  static func query(_ text: String, window: PageWindow? = nil) throws -> [[String]] {
    let script = Parser.parse(text)
    guard script.diagnostics.isEmpty, let statement = script.statements.first else {
      throw Diagnostic(.builderRefused("parse failed"), at: .point(0))
    }
    var compiler = StatementCompiler(manager: CompilerSpecTests.manager)
    compiler.window = window
    return try compiler.compile(statement).request.query.map { [$0.name, $0.value] }
  }

  @Test func withoutAWindowAllAsksForTheFirstPage() throws {
    #expect(try Self.query("from t select id all") == [["select", "id"], ["limit", "1000"]])
    #expect(
      try Self.query("from t select id order by name offset 5 all")
        == [["select", "id"], ["order", "name"], ["limit", "1000"], ["offset", "5"]])
  }

  @Test func aWindowOrdersByTheKeyAfterTheStatementsOrderAndCountsFromItsOffset() throws {
    let third = PageWindow(rows: 1000, offset: 2000, tiebreak: ["id"])
    #expect(
      try Self.query("from t select id all", window: third)
        == [["select", "id"], ["order", "id"], ["limit", "1000"], ["offset", "2000"]])
    #expect(
      try Self.query("from t select id order by age desc offset 7 all", window: third)
        == [["select", "id"], ["order", "age.desc,id"], ["limit", "1000"], ["offset", "2007"]])
    // a key column the statement orders already keeps its place and direction
    let key = PageWindow(rows: 500, offset: 0, tiebreak: ["org", "id"])
    #expect(
      try Self.query("from t select id order by id desc all", window: key)
        == [["select", "id"], ["order", "id.desc,org"], ["limit", "500"]])
  }

  @Test func theLookPastTheCapIsOneRowAfterTheAnswer() throws {
    let look = PageWindow(rows: 1, offset: 1000)
    #expect(
      try Self.query("from t select id where a eq 1 offset 3", window: look)
        == [["select", "id"], ["a", "eq.1"], ["limit", "1"], ["offset", "1003"]])
    #expect(
      try Self.query("from t select id", window: look)
        == [["select", "id"], ["limit", "1"], ["offset", "1000"]])
  }

  @Test func explainSaysWhatFollowsTheFirstPage() throws {
    let outcome = RequestExplainer.explain(
      Source(text: "from t select id order by name all"), format: nil,
      url: RequestExplainer.defaultURL, scope: VariableScope())
    guard case .explained(let text) = outcome else {
      Issue.record("not explained: \(outcome)")
      return
    }
    #expect(
      text.contains("url      http://127.0.0.1:54321/rest/v1/t?select=id&order=name&limit=1000\n"))
    #expect(
      text.hasSuffix(
        "pages    limit=1000 a page; the next pages add 1000, 2000, ... to the offset until one "
          + "comes back empty\n"
          + "         the table's primary key is added after 'order by' (read from the schema "
          + "when it runs)\n"))
    let plain = RequestExplainer.explain(
      Source(text: "from t select id"), format: nil, url: RequestExplainer.defaultURL,
      scope: VariableScope())
    guard case .explained(let single) = plain else { return }
    #expect(!single.contains("pages"))
  }
}
