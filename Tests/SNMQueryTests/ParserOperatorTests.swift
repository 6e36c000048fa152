import Testing

@testable import SNMQuery

struct OperatorCase: Sendable, CustomTestStringConvertible {
  var spelling: String
  var op: FilterOperator
  var value: String
  var testDescription: String { spelling }
  init(_ spelling: String, _ op: FilterOperator, _ value: String = "1") {
    self.spelling = spelling
    self.op = op
    self.value = value
  }
}

@Suite struct ParserOperatorTests {
  @Test func everyOperatorKeywordMapsAsItsSpelling() {
    // The operator a keyword spells is its wire name, but for the three long spellings.
    let long: [Keyword: FilterOperator] = [.contains: .cs, .containedby: .cd, .overlaps: .ov]
    for keyword in Keyword.allCases {
      let expected = long[keyword] ?? FilterOperator(rawValue: keyword.rawValue)
      #expect(FilterOperator(keyword: keyword) == expected, "\(keyword)")
    }
  }

  static let operators: [OperatorCase] = [
    OperatorCase("eq", .eq), OperatorCase("=", .eq), OperatorCase("==", .eq),
    OperatorCase("neq", .neq), OperatorCase("!=", .neq), OperatorCase("<>", .neq),
    OperatorCase("gt", .gt), OperatorCase(">", .gt),
    OperatorCase("gte", .gte), OperatorCase(">=", .gte),
    OperatorCase("lt", .lt), OperatorCase("<", .lt),
    OperatorCase("lte", .lte), OperatorCase("<=", .lte),
    OperatorCase("like", .like, "'a%'"), OperatorCase("ilike", .ilike, "'a*'"),
    OperatorCase("match", .match, "'^a'"), OperatorCase("~", .match, "'^a'"),
    OperatorCase("imatch", .imatch, "'^a'"), OperatorCase("~*", .imatch, "'^a'"),
    OperatorCase("in", .in, "(1, 2)"), OperatorCase("is", .is, "null"),
    OperatorCase("isdistinct", .isdistinct),
    OperatorCase("cs", .cs, "['a']"), OperatorCase("contains", .cs, "{\"a\": 1}"),
    OperatorCase("cd", .cd, "['a']"), OperatorCase("containedby", .cd, "'[1,5]'"),
    OperatorCase("ov", .ov, "[1, 3]"), OperatorCase("overlaps", .ov, "'[2017-01-01,2017-06-30]'"),
    OperatorCase("sl", .sl, "'[1,10)'"), OperatorCase("sr", .sr, "'[1,10)'"),
    OperatorCase("nxl", .nxl, "'[1,10)'"), OperatorCase("nxr", .nxr, "'[1,10)'"),
    OperatorCase("adj", .adj, "'[1,10)'"),
    OperatorCase("fts", .fts, "'cat'"), OperatorCase("plfts", .plfts, "'fat cat'"),
    OperatorCase("phfts", .phfts, "'fat cat'"), OperatorCase("wfts", .wfts, "'\"fat cat\" -dog'"),
    OperatorCase("EQ", .eq), OperatorCase("Contains", .cs, "['a']"),
    OperatorCase("ILIKE", .ilike, "'a'"),
  ]

  static func predicate(_ text: String) -> FilterPredicate? {
    guard case .predicate(let predicate) = condition(text)?.shape else { return nil }
    return predicate
  }

  @Test(arguments: operators)
  func operatorForm(_ testCase: OperatorCase) throws {
    let text = "from t select * where col \(testCase.spelling) \(testCase.value)"
    let predicate = try #require(Self.predicate(text), "\(canonical(text))")
    #expect(predicate.op == testCase.op)
    #expect(!predicate.negated)
    #expect(
      canonical(text) == "from t select * where col \(testCase.op.rawValue) "
        + canonicalValue(testCase.value))
  }

  @Test(arguments: operators.filter { $0.op != .is })
  func negatedOperator(_ testCase: OperatorCase) throws {
    let predicate = try #require(
      Self.predicate("from t select * where col not \(testCase.spelling) \(testCase.value)"))
    #expect(predicate.op == testCase.op)
    #expect(predicate.negated)
  }

  func canonicalValue(_ value: String) -> String {
    guard case .query(let query) = statement("from t select * where c eq \(value)")?.kind,
      case .condition(let tree) = query.filter, case .predicate(let predicate) = tree.shape
    else {
      if value == "null" { return "null" }
      return "?"
    }
    return predicate.value.value.canonicalText
  }

  @Test(arguments: [
    ("fts(english) 'fat & cat'", FilterOperator.fts, "english"),
    ("plfts(french) 'amusant'", .plfts, "french"),
    ("phfts(\"simple config\") 'a b'", .phfts, "simple config"),
    ("wfts(german) 'x'", .wfts, "german"),
  ])
  func textSearchConfig(_ text: String, _ op: FilterOperator, _ config: String) throws {
    let predicate = try #require(Self.predicate("from doc select * where body \(text)"))
    #expect(predicate.op == op)
    #expect(predicate.config?.text == config)
  }

  @Test(arguments: [
    ("like any ['%a%', '%b%']", FilterOperator.like, FilterPredicate.Quantifier.any),
    ("like all ['%a%', '%b%']", .like, .all),
    ("ilike any ['a*']", .ilike, .any),
    ("ilike all ['a*']", .ilike, .all),
    ("eq any [1, 2]", .eq, .any),
    ("gt all [1, 2]", .gt, .all),
    ("~ any ['^a']", .match, .any),
  ])
  func quantifiers(_ text: String, _ op: FilterOperator, _ quantifier: FilterPredicate.Quantifier)
    throws
  {
    let predicate = try #require(Self.predicate("from t select * where name \(text)"))
    #expect(predicate.op == op)
    #expect(predicate.quantifier == quantifier)
  }

  @Test(arguments: [
    ("deleted_at is null", false, Value.null),
    ("deleted_at is not null", true, .null),
    ("flag is true", false, .bool(true)),
    ("flag is not false", true, .bool(false)),
    ("flag IS UNKNOWN", false, .word("unknown")),
    ("flag not is null", true, .null),
  ])
  func isForms(_ text: String, _ negated: Bool, _ value: Value) throws {
    let predicate = try #require(Self.predicate("from t select * where \(text)"))
    #expect(predicate.op == .is)
    #expect(predicate.negated == negated)
    #expect(predicate.value.value == value)
  }

  @Test func orBindsLooserThanAnd() throws {
    let tree = try #require(condition("from t select * where a eq 1 or b eq 2 and c eq 3"))
    guard case .or(let operands, _) = tree.shape else {
      Issue.record("expected or, got \(tree)")
      return
    }
    #expect(Array(operands).count == 2)
    if case .and(let inner, _) = Array(operands)[1].shape {
      #expect(Array(inner).count == 2)
    } else {
      Issue.record("expected and inside or")
    }
  }

  @Test func notBeforeGroupAndBeforeOperator() throws {
    let group = try #require(condition("from t select * where not (a eq 1 or b eq 2)"))
    guard case .not(let inner, _) = group.shape, case .or(let operands, _) = inner.shape else {
      Issue.record("expected not(or), got \(group)")
      return
    }
    #expect(Array(operands).count == 2)
    let op = try #require(Self.predicate("from t select * where name not eq 'x'"))
    #expect(op.negated)
  }

  @Test func embeddedColumnsKeepTheirPath() throws {
    let predicate = try #require(Self.predicate("from t select *, a(b(*)) where a.b.c eq 1"))
    #expect(predicate.column.embedPath.map(\.text) == ["a", "b"])
    #expect(predicate.column.column.text == "c")
  }

  @Test func jsonPathInWhere() throws {
    let predicate = try #require(Self.predicate("from t select * where data->'a'->>0 eq 'x'"))
    #expect(
      predicate.column.json == [
        JSONPathStep(asText: false, key: "a", quoted: true), JSONPathStep(asText: true, key: "0"),
      ])
  }
}
