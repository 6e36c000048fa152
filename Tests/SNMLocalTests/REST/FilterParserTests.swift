import Testing

@testable import SNMLocal
@testable import SNMLocalREST

@Suite struct FilterParserTests {
  struct Case: Sendable, CustomStringConvertible {
    var text: String
    var expected: OperatorExpression
    var description: String { text }
  }

  static func op(_ operation: FilterOperation, not: Bool = false) -> OperatorExpression {
    OperatorExpression(negated: not, operation: operation)
  }

  static let cases: [Case] = [
    Case(text: "eq.5", expected: op(.compare(.eq, quantifier: nil, value: "5"))),
    Case(text: "eq.a,b", expected: op(.compare(.eq, quantifier: nil, value: "a,b"))),
    Case(text: "eq.\"quoted\"", expected: op(.compare(.eq, quantifier: nil, value: "\"quoted\""))),
    Case(text: "neq.x.y", expected: op(.compare(.neq, quantifier: nil, value: "x.y"))),
    Case(text: "not.eq.2", expected: op(.compare(.eq, quantifier: nil, value: "2"), not: true)),
    Case(text: "gte.3", expected: op(.compare(.gte, quantifier: nil, value: "3"))),
    Case(text: "ilike.ba*", expected: op(.compare(.ilike, quantifier: nil, value: "ba*"))),
    Case(text: "match.^a.*$", expected: op(.compare(.match, quantifier: nil, value: "^a.*$"))),
    Case(text: "imatch.x", expected: op(.compare(.imatch, quantifier: nil, value: "x"))),
    Case(
      text: "like(any).{%a%,%b%}",
      expected: op(.compare(.like, quantifier: .any, value: "{%a%,%b%}"))),
    Case(
      text: "ilike(all).{O*,*n}", expected: op(.compare(.ilike, quantifier: .all, value: "{O*,*n}"))
    ),
    Case(text: "in.(1,2,3)", expected: op(.list(["1", "2", "3"]))),
    Case(text: "not.in.(\"a,b\",c)", expected: op(.list(["a,b", "c"]), not: true)),
    Case(
      text: #"in.("Double\"Quote\"McGraw\"","\\","D\a\vid W\h\ite")"#,
      expected: op(.list([#"Double"Quote"McGraw""#, "\\", "David White"]))),
    Case(text: #"in.(Double"Quote"McGraw")"#, expected: op(.list([#"Double"Quote"McGraw""#]))),
    Case(text: "in.( a , b)", expected: op(.list(["a ", " b"]))),
    Case(text: "in.()", expected: op(.list([""]))),
    Case(text: "is.null", expected: op(.isValue(.null))),
    Case(text: "is.NULL", expected: op(.isValue(.null))),
    Case(text: "not.is.null", expected: op(.isValue(.null), not: true)),
    Case(text: "is.not_null", expected: op(.isValue(.notNull))),
    Case(text: "is.True", expected: op(.isValue(.true))),
    Case(text: "is.unknown", expected: op(.isValue(.unknown))),
    Case(text: "isdistinct.x", expected: op(.isDistinct("x"))),
    Case(text: "cs.{a,b}", expected: op(.compare(.cs, quantifier: nil, value: "{a,b}"))),
    Case(
      text: "cs.{\"postcode\":90210}",
      expected: op(.compare(.cs, quantifier: nil, value: "{\"postcode\":90210}"))),
    Case(text: "cd.{1}", expected: op(.compare(.cd, quantifier: nil, value: "{1}"))),
    Case(text: "ov.[1,2)", expected: op(.compare(.ov, quantifier: nil, value: "[1,2)"))),
    Case(text: "sl.(1,5)", expected: op(.compare(.sl, quantifier: nil, value: "(1,5)"))),
    Case(text: "sr.x", expected: op(.compare(.sr, quantifier: nil, value: "x"))),
    Case(text: "nxr.x", expected: op(.compare(.nxr, quantifier: nil, value: "x"))),
    Case(text: "nxl.x", expected: op(.compare(.nxl, quantifier: nil, value: "x"))),
    Case(text: "adj.x", expected: op(.compare(.adj, quantifier: nil, value: "x"))),
    Case(
      text: "fts(english).fat & cat",
      expected: op(.textSearch(.fts, config: "english", query: "fat & cat"))),
    Case(text: "plfts.a b", expected: op(.textSearch(.plfts, config: nil, query: "a b"))),
    Case(
      text: "not.phfts(english).x",
      expected: op(.textSearch(.phfts, config: "english", query: "x"), not: true)),
    Case(text: "wfts.\"a\" -b", expected: op(.textSearch(.wfts, config: nil, query: "\"a\" -b"))),
  ]

  @Test(arguments: cases) func parses(_ item: Case) throws {
    #expect(try FilterParser.parse(item.text) == item.expected)
  }

  /// An operator none of PostgREST's alternatives reads: Parsec's furthest error, worded as the
  /// doctests of QueryParams.hs (v13.0.8) show it (`nothing.x` follows from the same rules).
  @Test(arguments: [
    ("noop.0", 1, #"unexpected "o" expecting "not" or operator (eq, gt, ...)"#),
    ("val", 1, #"unexpected "v" expecting "not" or operator (eq, gt, ...)"#),
    ("fts().value", 5, #"unexpected ")" expecting operator (eq, gt, ...)"#),
    ("eq().value", 4, #"unexpected ")" expecting operator (eq, gt, ...)"#),
    ("is().value", 3, #"unexpected "(" expecting operator (eq, gt, ...)"#),
    ("in().value", 3, #"unexpected "(" expecting operator (eq, gt, ...)"#),
    ("not.noop.0", 5, #"unexpected "n" expecting operator (eq, gt, ...)"#),
    ("nothing.x", 4, #"unexpected "h" expecting delimiter (.)"#),
    ("eq", 3, "unexpected end of input expecting operator (eq, gt, ...)"),
  ])
  func unknownOperatorsAreWordedAsPostgRESTWordsThem(
    text: String, column: Int, details: String
  ) {
    do {
      _ = try FilterParser.parse(text)
      Issue.record("\(text) parsed")
    } catch {
      #expect(error.code == "PGRST100")
      #expect(error.status == 400)
      #expect(error.message == "\"failed to parse filter (\(text))\" (line 1, column \(column))")
      #expect(error.detailsText == details)
    }
  }

  @Test func malformedValuesAreRefused() {
    for bad in ["in.(1,2", "in.1,2", "is.maybe", "neq(any).{1}", "eq(some).1", "fts(english", "eq"]
    {
      #expect(throws: RESTError.self, "\(bad)") { try FilterParser.parse(bad) }
    }
  }
}
