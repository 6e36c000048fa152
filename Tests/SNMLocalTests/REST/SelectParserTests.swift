import Testing

@testable import SNMLocal
@testable import SNMLocalREST

@Suite struct SelectParserTests {
  func field(
    _ name: String, _ path: [FieldPath.Step] = [], alias: String? = nil, cast: String? = nil
  ) -> SelectItem {
    .field(SelectField(field: FieldPath(name: name, path: path), alias: alias, cast: cast))
  }

  @Test func columnsAliasesAndCasts() throws {
    #expect(
      try SelectParser.parse("id, nick:name ,age::text,alias:col::int4")
        == [
          field("id"), field("name", alias: "nick"), field("age", cast: "text"),
          field("col", alias: "alias", cast: "int4"),
        ])
  }

  @Test func jsonPaths() throws {
    #expect(
      try SelectParser.parse("data->>blood,data->phones->0,tags->-1,x->a->>b::int")
        == [
          field("data", [.init(asText: true, operand: .key("blood"))]),
          field(
            "data",
            [
              .init(asText: false, operand: .key("phones")),
              .init(asText: false, operand: .index(0)),
            ]),
          field("tags", [.init(asText: false, operand: .index(-1))]),
          field(
            "x",
            [.init(asText: false, operand: .key("a")), .init(asText: true, operand: .key("b"))],
            cast: "int"),
        ])
  }

  @Test func embeds() throws {
    let items = try SelectParser.parse(
      "name,owner:user_info!dog_owner_fkey!inner(id,name),...spread(a),walks!left(*),empty()")
    #expect(items.count == 5)
    guard case .embed(let owner) = items[1], case .embed(let spread) = items[2],
      case .embed(let walks) = items[3], case .embed(let empty) = items[4]
    else {
      Issue.record("expected embeds: \(items)")
      return
    }
    #expect(owner.name == "user_info")
    #expect(owner.alias == "owner")
    #expect(owner.hint == "dog_owner_fkey")
    #expect(owner.joinType == .inner)
    #expect(owner.children == [field("id"), field("name")])
    #expect(spread.isSpread && spread.name == "spread")
    #expect(walks.joinType == .left && walks.hint == nil)
    #expect(empty.children.isEmpty)
    let reversed = try SelectParser.parse("rel!inner!fk(*)")
    guard case .embed(let rel) = reversed.first else {
      Issue.record("expected an embed")
      return
    }
    #expect(rel.hint == "fk" && rel.joinType == .inner)
  }

  @Test func quotedAndUnusualNames() throws {
    #expect(
      try SelectParser.parse(
        #""a.dotted.column","(inside,parens)","  col  w  space  ",이름,kebab-case"#)
        == [
          field("a.dotted.column"), field("(inside,parens)"), field("  col  w  space  "),
          field("이름"), field("kebab-case"),
        ])
    #expect(try SelectParser.parse(#""with \"quote\"""#) == [field(#"with "quote""#)])
  }

  @Test func aggregatesAreRecognised() throws {
    let items = try SelectParser.parse("amount.sum(),count()")
    guard case .field(let sum) = items[0], case .field(let count) = items[1] else {
      Issue.record("expected fields")
      return
    }
    #expect(sum.aggregate == "sum")
    #expect(count.aggregate == "count")
  }

  @Test func aggregateCastsBeforeAndAfter() throws {
    let items = try SelectParser.parse("s:data->>key::integer.sum()::text,count()::text,n::int")
    guard case .field(let sum) = items[0], case .field(let count) = items[1],
      case .field(let plain) = items[2]
    else {
      Issue.record("expected fields")
      return
    }
    #expect(sum.alias == "s" && sum.cast == "integer" && sum.aggregate == "sum")
    #expect(sum.aggregateCast == "text")
    #expect(count.aggregate == "count" && count.aggregateCast == "text" && count.cast == nil)
    #expect(plain.cast == "int" && plain.aggregate == nil)
  }

  @Test func jsonKeysTakePunctuation() throws {
    #expect(
      try SelectParser.parse("data->!@#$%^&*_d->>a b-c")
        == [
          field(
            "data",
            [
              .init(asText: false, operand: .key("!@#$%^&*_d")),
              .init(asText: true, operand: .key("a b-c")),
            ])
        ])
  }

  /// PostgREST's words for a bad JSON path, at Parsec's column.
  @Test func jsonPathErrorsAsPostgRESTWordsThem() {
    let cases = [
      (
        "data->(x", 7,
        "unexpected \"(\" expecting \"-\", digit or any non reserved character different from: .,>()"
      ),
      ("data->>--34", 9, "unexpected \"-\" expecting digit"),
      (
        "data->>-78xy", 11,
        "unexpected 'x' expecting digit, \"->\", \"::\", \".\", \",\" or end of input"
      ),
    ]
    for (text, column, details) in cases {
      do {
        _ = try SelectParser.parse(text)
        Issue.record("\(text) parsed")
      } catch {
        #expect(error.message.hasSuffix("(line 1, column \(column))"), "\(text): \(error.message)")
        #expect(error.details == .string(details), "\(text)")
      }
    }
  }

  @Test func errorsAreBadRequestsWithPosition() {
    for bad in ["id,clients(name[])", "name!hint", "*!hint", "name::", "a,,b", "rel(a", "a),b"] {
      do {
        let items = try SelectParser.parse(bad)
        Issue.record("\(bad) parsed as \(items)")
      } catch {
        #expect(error.status == 400, "\(bad)")
        #expect(error.code == "PGRST100", "\(bad)")
        #expect(
          error.message.hasPrefix("\"failed to parse select parameter (\(bad))\" (line 1, column"))
      }
    }
  }

  /// PostgREST's `pFieldForest` stops at a `)` it does not need and never reads what follows: a
  /// stray closing parenthesis at the end is accepted (other text after it is refused here).
  @Test func aTrailingClosingParenthesisIsAccepted() throws {
    #expect(try SelectParser.parse("a)") == SelectParser.parse("a"))
    #expect(try SelectParser.parse("id,rel(x))") == SelectParser.parse("id,rel(x)"))
    #expect(throws: RESTError.self) { try SelectParser.parse("a)b") }
  }

  @Test func errorMessageMatchesPostgREST() {
    do {
      _ = try SelectParser.parse("id,clients(name[])")
      Issue.record("parsed")
    } catch {
      #expect(
        error.message
          == "\"failed to parse select parameter (id,clients(name[]))\" (line 1, column 16)")
      // QueryParams.hs's doctest of pFieldForest: `eof`'s unexpected shows a Char ('[').
      #expect(
        error.detailsText
          == #"unexpected '[' expecting letter, digit, "-", "->>", "->", "::", ".", ")", "," or end of input"#
      )
    }
  }
}

@Suite struct NestingLimitTests {
  @Test func deepEmbedsAndTreesAreRefusedNotRecursedInto() {
    let deepSelect =
      String(repeating: "a(", count: 5000) + "b" + String(repeating: ")", count: 5000)
    #expect(throws: RESTError.self) { try SelectParser.parse(deepSelect) }
    let deepTree =
      "(" + String(repeating: "and(", count: 5000) + "a.eq.1" + String(repeating: ")", count: 5001)
    #expect(throws: RESTError.self) {
      try LogicParser.parse(conjunction: .or, negated: false, deepTree)
    }
    let fine = String(repeating: "a(", count: 60) + "b" + String(repeating: ")", count: 60)
    #expect(throws: Never.self) { try SelectParser.parse(fine) }
  }
}
