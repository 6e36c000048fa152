import Testing

@testable import SNMLocal
@testable import SNMLocalREST

@Suite struct LogicAndOrderParserTests {
  func leaf(_ name: String, _ op: ComparisonOperator, _ value: String, not: Bool = false)
    -> LogicTree
  {
    .filter(
      Filter(
        field: FieldPath(name: name),
        expression: OperatorExpression(
          negated: not, operation: .compare(op, quantifier: nil, value: value))))
  }

  @Test func nestedTrees() throws {
    let tree = try LogicParser.parse(
      conjunction: .or, negated: false, "(and(approved.eq.true, channel_id.eq.1) ,channel_id.eq.2)")
    #expect(
      tree
        == .group(
          negated: false, conjunction: .or,
          children: [
            .group(
              negated: false, conjunction: .and,
              children: [leaf("approved", .eq, "true"), leaf("channel_id", .eq, "1")]),
            leaf("channel_id", .eq, "2"),
          ]))
    let negated = try LogicParser.parse(
      conjunction: .and, negated: false, "(not.or(approved.eq.false,channel_id.eq.2),id.gt.0)")
    guard case .group(_, _, let children) = negated, case .group(let isNot, .or, _) = children[0]
    else {
      Issue.record("unexpected \(negated)")
      return
    }
    #expect(isNot)
  }

  @Test func quotedValuesArraysAndNot() throws {
    let tree = try LogicParser.parse(
      conjunction: .or, negated: true,
      #"(age_range.adj."[18,21)",tags.cs.{a,b},name.eq.entity 1,name.not.eq."(a,b)",x.in.(1,"2,3"))"#
    )
    #expect(
      tree
        == .group(
          negated: true, conjunction: .or,
          children: [
            leaf("age_range", .adj, "[18,21)"), leaf("tags", .cs, "{a,b}"),
            leaf("name", .eq, "entity 1"), leaf("name", .eq, "(a,b)", not: true),
            .filter(
              Filter(
                field: FieldPath(name: "x"),
                expression: OperatorExpression(negated: false, operation: .list(["1", "2,3"])))),
          ]))
  }

  @Test func unquotedCommaSplitsTheValue() {
    #expect(throws: RESTError.self) {
      try LogicParser.parse(conjunction: .or, negated: false, "(txt.eq.a,b)")
    }
    #expect(throws: RESTError.self) {
      try LogicParser.parse(conjunction: .or, negated: false, "()")
    }
    #expect(throws: RESTError.self) {
      try LogicParser.parse(conjunction: .or, negated: false, "(id.eq.1,not.xor(id.eq.2))")
    }
    #expect(throws: RESTError.self) {
      try LogicParser.parse(conjunction: .or, negated: false, "(id.eq.1")
    }
  }

  @Test func orderTerms() throws {
    #expect(
      try OrderParser.parse(
        "name.desc.nullslast,id, json_col->>key.asc,clients(name).desc,x.nullsfirst")
        == [
          OrderTerm(field: FieldPath(name: "name"), descending: true, nullsFirst: false),
          OrderTerm(field: FieldPath(name: "id")),
          OrderTerm(
            field: FieldPath(name: "json_col", path: [.init(asText: true, operand: .key("key"))]),
            descending: false),
          OrderTerm(relation: "clients", field: FieldPath(name: "name"), descending: true),
          OrderTerm(field: FieldPath(name: "x"), nullsFirst: true),
        ])
  }

  @Test func badOrderTerms() {
    for bad in ["id.ac", "id.descc", "id.nulsfist", "id.asc.smth34", "clients(name,id)", ""] {
      do {
        let terms = try OrderParser.parse(bad)
        Issue.record("\(bad) parsed as \(terms)")
      } catch {
        #expect(error.code == "PGRST100", "\(bad)")
      }
    }
  }
}
