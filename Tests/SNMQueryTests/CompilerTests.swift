import SNMNetwork
import SNMSupabase
import Testing

@testable import SNMQuery

/// The compiler beyond the spec table: variables, quoting, schemas, and what it refuses.
@Suite struct CompilerTests {
  struct WireCase: Sendable, CustomTestStringConvertible {
    var statement: String
    var query: [[String]]
    var url: String?
    var testDescription: String { statement }
    init(_ statement: String, _ query: [[String]], url: String? = nil) {
      self.statement = statement
      self.query = query
      self.url = url
    }
  }

  static let scope = VariableScope(
    values: [
      "dog": ["id": "0c8e5f7a-6b9d-4f1e-9a3b-2d4c6e8f0a1b", "name": "Bori", "age": 3],
      "rows": [["name": "Kim"], ["name": "Lee"]],
      "ids": [1, 2],
      "n": 5,
      "body": ["name": "Bori", "tags": ["a", "b"]],
      "one": [["id": 9]],
    ],
    environment: ["OWNER": "kim", "HOME": "/root"])

  static let wire: [WireCase] = [
    // variables in values, strings and lists
    WireCase(
      "from dog select * where id eq $dog.id",
      [["select", "*"], ["id", "eq.0c8e5f7a-6b9d-4f1e-9a3b-2d4c6e8f0a1b"]]),
    WireCase(
      "from dog select * where name eq $rows[1].name limit $n",
      [["select", "*"], ["name", "eq.Lee"], ["limit", "5"]]),
    WireCase(
      "from dog select * where name eq '${dog.name} & co'",
      [["select", "*"], ["name", "eq.Bori & co"]]),
    WireCase(
      "from dog select * where owner eq $env.OWNER", [["select", "*"], ["owner", "eq.kim"]]),
    WireCase("from dog select * where id in $ids", [["select", "*"], ["id", "in.(1,2)"]]),
    WireCase("from dog select * where age gt $dog.age", [["select", "*"], ["age", "gt.3"]]),
    // values go out as written: UUIDs lowercase, dates and numbers untouched
    WireCase(
      "from t select * where id eq 0C8E5F7A-6B9D-4F1E-9A3B-2D4C6E8F0A1B",
      [["select", "*"], ["id", "eq.0c8e5f7a-6b9d-4f1e-9a3b-2d4c6e8f0a1b"]]),
    WireCase(
      "from t select * where d gte 2026-11-29 and ts lt 2026-11-29T10:00:00+09:00",
      [["select", "*"], ["d", "gte.2026-11-29"], ["ts", "lt.2026-11-29T10:00:00+09:00"]]),
    WireCase(
      "from t select * where n eq 1e5 or n eq 2.50",
      [["select", "*"], ["or", "(n.eq.1e5,n.eq.2.50)"]]),
    // quoting: top level never, inside trees and lists when needed
    WireCase(
      "from t select * where name eq 'a,b (c)'", [["select", "*"], ["name", "eq.a,b (c)"]]),
    WireCase(
      "from t select * where name eq 'a,b' or name eq 'say \"hi\"'",
      [["select", "*"], ["or", #"(name.eq."a,b",name.eq."say \"hi\"")"#]]),
    WireCase(
      "from t select * where tags ov ['x y', ' pad', 'NULL', null]",
      [["select", "*"], ["tags", #"ov.{x y," pad","NULL",NULL}"#]]),
    WireCase(
      "from t select * where r adj '[1,10)' or r cs '[2,3]'",
      [["select", "*"], ["or", #"(r.adj."[1,10)",r.cs."[2,3]")"#]]),
    // names outside A-Z a-z 0-9 _ $ are quoted on the wire
    WireCase(
      #"from t select "first name", x:"a.b" where "first name" eq 'K' order by "a.b" desc"#,
      [
        ["select", #""first name",x:"a.b""#], [#""first name""#, "eq.K"],
        ["order", #""a.b".desc"#],
      ]),
    // every not form
    WireCase("from t select * where not (a eq 1)", [["select", "*"], ["a", "not.eq.1"]]),
    WireCase(
      "from t select * where not (a eq 1 and b eq 2)",
      [["select", "*"], ["not.and", "(a.eq.1,b.eq.2)"]]),
    WireCase(
      "from t select * where a eq 1 or not (b eq 2 or c is null)",
      [["select", "*"], ["or", "(a.eq.1,not.or(b.eq.2,c.is.null))"]]),
    WireCase("from t select * where not (not (a eq 1))", [["select", "*"], ["a", "eq.1"]]),
    WireCase(
      "from t select * where a not like any ['x%'] and b is unknown",
      [["select", "*"], ["a", "not.like(any).{x%}"], ["b", "is.unknown"]]),
    WireCase(
      "from t select * where b not fts(simple) 'a' and c phfts 'b c' and d wfts(english) 'e'",
      [
        ["select", "*"], ["b", "not.fts(simple).a"], ["c", "phfts.b c"], ["d", "wfts(english).e"],
      ]),
    // embedded filters, orders, json paths
    WireCase(
      "from t select *, m(*) where m.a eq 1 and (m.b eq 2 or m.c eq 3) order by m.d desc nulls first, id asc",
      [
        ["select", "*,m(*)"], ["m.a", "eq.1"], ["m.or", "(b.eq.2,c.eq.3)"],
        ["m.order", "d.desc.nullsfirst"], ["order", "id.asc"],
      ]),
    WireCase(
      "from t select data->'a'->>0 where data->>b eq 'x' order by data->>c",
      [["select", "data->a->>0"], ["data->>b", "eq.x"], ["order", "data->>c"]]),
    // select items: spread, hints, aggregates
    WireCase(
      "from t select ...r(a), o:u!fk!inner(b), amount.sum(), total:count()::int",
      [["select", "...r(a),o:u!fk!inner(b),amount.sum(),total:count()::int"]]),
    WireCase(
      "from t select amount::int.sum(), t:amount::int.avg()::text, a::text, amount.max()::int",
      [["select", "amount::int.sum(),t:amount::int.avg()::text,a::text,amount.max()::int"]]),
    WireCase(
      "from t select k, ...r(n:count(), x::int.sum()::text, ...s(y.avg()))",
      [["select", "k,...r(n:count(),x::int.sum()::text,...s(y.avg()))"]]),
    // writes
    WireCase(
      #"from t upsert [{"id": 1}] on conflict id, "org id" ignore duplicates returning id"#,
      [["on_conflict", #"id,"org id""#], ["select", "id"], ["columns", #""id""#]]),
    WireCase(#"from t update {"a": 1} where all"#, []),
    // rpc
    WireCase(
      #"rpc get f {"s": "a b", "arr": ["x", "y,z"], "o": {"k": 1}}"#,
      [["s", "a b"], ["arr", #"{x,"y,z"}"#], ["o", #"{"k":1}"#]]),
    WireCase("rpc get f", []),
    WireCase("rpc f {} where a eq 1 returning id, name", [["a", "eq.1"], ["select", "id,name"]]),
  ]

  @Test(arguments: wire)
  func wireForm(_ testCase: WireCase) throws {
    let request = try CompilerSpecTests.request(testCase.statement, scope: Self.scope)
    #expect(request.query.map { [$0.name, $0.value] } == testCase.query)
  }

  @Test func bodiesFillInVariablesAndKeepOrderAndNumberText() throws {
    let request = try CompilerSpecTests.request(
      #"from dog insert {"z": 1.50, "owner": $dog.id, "a": [$n, 2026-11-29], "tags": $body.tags, "u": 0C8E5F7A-6B9D-4F1E-9A3B-2D4C6E8F0A1B}"#,
      scope: Self.scope)
    #expect(
      request.body?.serialized()
        == #"{"z":1.50,"owner":"0c8e5f7a-6b9d-4f1e-9a3b-2d4c6e8f0a1b","a":[5,"2026-11-29"],"tags":["a","b"],"u":"0c8e5f7a-6b9d-4f1e-9a3b-2d4c6e8f0a1b"}"#
    )
    let whole = try CompilerSpecTests.request("from dog insert $body", scope: Self.scope)
    #expect(whole.body?.serialized() == #"{"name":"Bori","tags":["a","b"]}"#)
  }

  @Test func otherSchemasSendProfileHeaders() throws {
    let read = try CompilerSpecTests.request("from api.t select *")
    #expect(read.endpoint.headers["Accept-Profile"] == "api")
    #expect(read.endpoint.path == "/rest/v1/t")
    let write = try CompilerSpecTests.request("from api.t delete where id eq 1")
    #expect(write.endpoint.headers["Content-Profile"] == "api")
    let rpc = try CompilerSpecTests.request("rpc api.f {}")
    #expect(rpc.endpoint.headers["Content-Profile"] == "api")
    #expect(rpc.endpoint.path == "/rest/v1/rpc/f")
  }

  struct FailureCase: Sendable, CustomTestStringConvertible {
    var statement: String
    var id: String
    var column: Int
    var testDescription: String { statement }
  }

  @Test(arguments: [
    FailureCase(
      statement: "from t select * where id eq $cat.id", id: "undefined-variable", column: 29),
    FailureCase(statement: "from t select * where id eq $dog.idd", id: "missing-field", column: 29),
    FailureCase(
      statement: "from t select * where id eq $rows.name", id: "not-a-container", column: 29),
    FailureCase(
      statement: "from t select * where id eq $rows[5].name", id: "index-out-of-range", column: 29),
    FailureCase(statement: "from t select * where id eq $env.NOPE", id: "env-not-set", column: 29),
    FailureCase(
      statement: "from t select * where id eq $session.user_id", id: "no-session", column: 29),
    FailureCase(statement: "from t select * limit $dog", id: "variable-kind", column: 23),
    FailureCase(statement: "from t select * where id in $n", id: "variable-kind", column: 29),
    FailureCase(statement: "from t update $ids where id eq 1", id: "builder-refused", column: 1),
    FailureCase(statement: "login", id: "not-a-request", column: 1),
  ])
  func failure(_ testCase: FailureCase) throws {
    let script = Parser.parse(testCase.statement)
    let statement = try #require(script.statements.first)
    do {
      _ = try StatementCompiler(manager: CompilerSpecTests.manager, scope: Self.scope).compile(
        statement)
      Issue.record("expected \(testCase.id)")
    } catch {
      #expect(error.message.id == testCase.id)
      #expect(script.source.location(of: error.range.start).column == testCase.column)
    }
  }

  @Test func missingFieldSuggestsTheClosestName() throws {
    let statement = try #require(
      Parser.parse("from t select * where a eq $dog.nmae").statements.first)
    do {
      _ = try StatementCompiler(manager: CompilerSpecTests.manager, scope: Self.scope).compile(
        statement)
    } catch {
      #expect(error.help == "did you mean '$dog.name'?")
    }
  }

  @Test func arrayResultNeedsAnIndexOrSingle() throws {
    let statement = try #require(
      Parser.parse("from t select * where a eq $one.id").statements.first)
    do {
      _ = try StatementCompiler(manager: CompilerSpecTests.manager, scope: Self.scope).compile(
        statement)
    } catch {
      #expect(error.message.text == "'$one' holds an array of 1, not an object")
      #expect(error.help == "write $one[0].id, or end the query of the 'let' with 'single'")
    }
  }

  @Test func offlineCheckUsesPlaceholdersForUnboundVariables() {
    let source = Source(
      text:
        "from t select * where id in $ids and a eq $x limit $n\nfrom t insert $rows\nfrom t delete")
    let diagnostics = OfflineCheck().diagnostics(for: source)
    #expect(
      diagnostics.map(\.message.id) == [
        "undefined-variable", "undefined-variable", "undefined-variable", "undefined-variable",
        "unfiltered-write",
      ])
    let bound = OfflineCheck(variables: ["ids": [1], "x": 1, "n": 1, "rows": []]).diagnostics(
      for: source)
    #expect(bound.map(\.message.id) == ["unfiltered-write"])
  }

  /// PostgREST knows five aggregate functions; any other name is refused before sending.
  @Test func unknownAggregatesAreRefused() {
    #expect(parseAndCheck("from t select amount.summ()").errors == ["unknown-aggregate"])
    #expect(parseAndCheck("from t select amount.median(), m(x.foo())").errors.count == 2)
    #expect(
      parseAndCheck("from t select a.sum(), b.avg(), c.min(), d.max(), e.count(), count()").errors
        == [])
  }

  /// A select item's names in quotes may be empty, and are refused when they are, in both trees
  /// (the checker looks into only the items with a name in quotes or an aggregate: a word is
  /// never empty); words and non-empty quoted names pass.
  @Test func emptyQuotedNamesInASelectListAreRefused() {
    let refused = [
      "from t select \"\"", "from t select \"\":a", "from t select a, \"\"(id)",
      "from t select x:\"\"(id)", "from t select ...\"\"(a)", "from t select a(\"\")",
      "from t insert {\"a\": 1} returning \"\"",
    ]
    let passed = ["from t select \"a\", b:\"c\", \"d\"(\"e\"), x:y(z), count()"]
    for text in refused + passed {
      let expected = refused.contains(text) ? ["empty-name"] : []
      #expect(parseAndCheck(text).errors == expected, "\(text)")
      var checking = CheckingParser(Source(text: text))
      var checker = Checker()
      while let statement = checking.nextStatement() { checker.check(statement) }
      #expect(checker.diagnostics.map(\.message.id) == expected, "snm check: \(text)")
    }
  }

  /// An aggregate's column may be empty only as the bare `count()`, which the parser makes so: a
  /// column written `""` is refused beside any aggregate, in both trees, where it was written
  /// (`"".sum()` passed and was sent as `count()`).
  @Test func anEmptyColumnBesideAnAggregateIsRefused() {
    let cases: [(text: String, column: Int, help: String)] = [
      (
        "from t select \"\".sum()", 15,
        "to count the rows, write 'count()'; to sum a column, name it"
      ),
      (
        "from t select n:\"\".count()::int", 17,
        "to count the rows, write 'count()'; to count a column, name it"
      ),
      (
        "from t select a(x, \"\"::int.avg())", 20,
        "to count the rows, write 'count()'; to avg a column, name it"
      ),
    ]
    for (text, column, help) in cases {
      var script = Parser.parse(text, fileName: "test.snm")
      Checker.check(&script)
      var checking = CheckingParser(Source(text: text))
      var checker = Checker()
      while let statement = checking.nextStatement() { checker.check(statement) }
      for diagnostics in [script.diagnostics, checker.diagnostics] {
        #expect(diagnostics.map(\.message.id) == ["empty-name"], "\(text)")
        #expect(
          diagnostics.first.map { script.source.location(of: $0.range.start).column } == column)
        #expect(diagnostics.first?.help == help)
      }
    }
    #expect(parseAndCheck("from t select count(), n:count()::int, a(count())").errors == [])
  }

  /// `amount::int.sum()` casts the column before summing; `amount.sum()::int` casts the sum; a
  /// cast with no aggregate after it is the column's.
  @Test func aCastBeforeAnAggregateIsItsInputCast() throws {
    func field(_ text: String) throws -> SelectField? {
      let statement = try #require(Parser.parse("from t select " + text).statements.first)
      guard case .query(let query) = statement.kind, case .select(let items, _) = query.action,
        case .field(let field) = items.first
      else { return nil }
      return field
    }
    let before = try #require(try field("amount::int.sum()"))
    #expect(before.inputCast?.text == "int" && before.cast == nil)
    #expect(before.aggregate?.text == "sum")
    let after = try #require(try field("amount.sum()::int"))
    #expect(after.inputCast == nil && after.cast?.text == "int")
    let both = try #require(try field("amount::int.sum()::text"))
    #expect(both.inputCast?.text == "int" && both.cast?.text == "text")
    let plain = try #require(try field("amount::int"))
    #expect(plain.inputCast == nil && plain.cast?.text == "int" && plain.aggregate == nil)
    #expect(parseAndCheck("from t select amount::int.summ()").errors == ["unknown-aggregate"])
    #expect(parseAndCheck("from t select ...r(x::int.median())").errors == ["unknown-aggregate"])
  }

  @Test func orGroupMixingEmbedsIsRefusedBeforeSending() {
    let result = parseAndCheck("from t select *, m(*) where m.a eq 1 or b eq 2")
    #expect(result.errors == ["mixed-embed-group"])
  }

  @Test func valueEvaluatorTextForEcho() throws {
    let statement = try #require(
      Parser.parse("echo 'made $dog.id for ${rows[0].name} $5 $ids'").statements.first)
    guard case .echo(let echo) = statement.kind else {
      Issue.record("expected echo")
      return
    }
    #expect(
      try ValueEvaluator.text(echo.value, in: Self.scope)
        == "made 0c8e5f7a-6b9d-4f1e-9a3b-2d4c6e8f0a1b for Kim $5 [1,2]")
  }
}
