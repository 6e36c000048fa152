/// Parses `or=(...)` / `and=(...)` values into a `LogicTree` (PostgREST's `pLogicTree`).
///
///     try LogicParser.parse(conjunction: .or, negated: false, "(age.lt.18,and(a.eq.1,b.not.is.null))")
///
/// Operands are `field[->path].[not.]op.value`; groups are `[not.]and(...)` / `[not.]or(...)`;
/// spaces around items and parentheses are allowed; `or=()` is an error.
enum LogicParser {
  static func parse(
    conjunction: LogicTree.Conjunction, negated: Bool, _ text: String
  ) throws(RESTError) -> LogicTree {
    var cursor = ParseCursor(text, what: "logic tree")
    cursor.columnOffset = (negated ? 4 : 0) + (conjunction == .and ? 3 : 2)
    let children = try groupBody(&cursor)
    if !cursor.isAtEndButClosingParentheses {
      throw cursor.failure(expecting: "end of input")
    }
    return .group(negated: negated, conjunction: conjunction, children: children)
  }

  /// `( tree , tree ... )`.
  private static func groupBody(_ cursor: inout ParseCursor) throws(RESTError) -> [LogicTree] {
    try cursor.enterNesting()
    defer { cursor.depth -= 1 }
    cursor.skipSpace()
    try cursor.expect("(")
    cursor.skipSpace()
    var children: [LogicTree] = []
    repeat {
      cursor.skipSpace()
      children.append(try tree(&cursor))
      cursor.skipSpace()
    } while cursor.consume(",")
    try cursor.expect(")", "\",\" or \")\"")
    cursor.skipSpace()
    return children
  }

  private static func tree(_ cursor: inout ParseCursor) throws(RESTError) -> LogicTree {
    let start = cursor.position
    if let filter = try? filter(&cursor) {
      return .filter(filter)
    }
    cursor.position = start
    let negated = cursor.consume("not.")
    let conjunction: LogicTree.Conjunction
    if cursor.consume("and") {
      conjunction = .and
    } else if cursor.consume("or") {
      conjunction = .or
    } else {
      if !negated, let failure = filterFailure(cursor) { throw failure }
      throw cursor.failure(expecting: "logic operator (and, or)")
    }
    // Parsec has consumed the operator's name: its error is the group's, not the filter's.
    guard cursor.looksAt("(") || cursor.looksAt(" ") else {
      throw cursor.failure(expecting: "\"(\"")
    }
    return .group(negated: negated, conjunction: conjunction, children: try groupBody(&cursor))
  }

  /// The error parsing the operand as a filter gives, to report the more useful of the two.
  private static func filterFailure(_ cursor: ParseCursor) -> RESTError? {
    var copy = cursor
    do {
      _ = try filter(&copy)
      return nil
    } catch {
      return error
    }
  }

  /// `field.[not.]op.value`, ending at `,` or `)`.
  private static func filter(_ cursor: inout ParseCursor) throws(RESTError) -> Filter {
    if cursor.isAtEnd || cursor.current == ")" {
      throw cursor.failure(
        expecting:
          "field name (* or [a..z0..9_$]), negation operator (not) or logic operator (and, or)")
    }
    let field = try cursor.field()
    try cursor.expect(".", "delimiter (.)")
    let expression = try FilterParser.operatorExpression(&cursor, context: .logicTree)
    cursor.skipSpace()
    guard cursor.isAtEnd || cursor.current == "," || cursor.current == ")" else {
      throw cursor.failure(expecting: "\",\" or \")\"")
    }
    return Filter(field: field, expression: expression)
  }
}
