/// Parses a filter's operator expression: `[not.]op[(mod)].value` (PostgREST's `pOpExpr`).
///
///     try FilterParser.parse("not.in.(1,\"a,b\")")   // negated list ["1", "a,b"]
///     try FilterParser.parse("like(any).{a*,b*}")    // quantified LIKE
///     try FilterParser.parse("fts(english).fat & cat")
///
/// A top-level value runs to the end of the parameter and is never unquoted; inside `or=()`
/// a value ends at `,` or `)` unless it is `"quoted"` or a `{...}` array (ref §2.5).
enum FilterParser {
  /// Where a value ends.
  enum ValueContext {
    case topLevel, logicTree
  }

  /// Parses a whole filter value (the right side of `col=...`).
  static func parse(_ text: String) throws(RESTError) -> OperatorExpression {
    var cursor = ParseCursor(text, what: "filter")
    let expression = try operatorExpression(&cursor, context: .topLevel)
    if !cursor.isAtEndButClosingParentheses {
      throw cursor.failure(expecting: "end of input")
    }
    return expression
  }

  /// `[not.]operation` at the cursor.
  static func operatorExpression(
    _ cursor: inout ParseCursor, context: ValueContext
  ) throws(RESTError) -> OperatorExpression {
    let start = cursor.position
    let negated = cursor.consume("not.")
    return OperatorExpression(
      negated: negated,
      operation: try operation(&cursor, context: context, notStart: negated ? nil : start))
  }

  /// The operation at the cursor; `notStart` is where `not.` was looked for (nil: it was read).
  /// A failure before the operator's `.` is worded as Parsec words it (`OperatorFailure`).
  private static func operation(
    _ cursor: inout ParseCursor, context: ValueContext, notStart: Int?
  ) throws(RESTError) -> FilterOperation {
    let start = cursor.position
    if cursor.consume("in.") {
      return .list(try list(&cursor))
    }
    if cursor.consume("is.") {
      return .isValue(try isValue(&cursor))
    }
    if cursor.consume("isdistinct.") {
      return .isDistinct(try value(&cursor, context: context))
    }
    // The operator token: everything up to `(` or `.`.
    cursor.skip(until: UInt8(ascii: "."), UInt8(ascii: "("))
    let name = cursor.text(from: start)
    if let textSearch = TextSearchOperator(rawValue: name) {
      var config: String? = nil
      if cursor.consume("(") {
        guard let language = cursor.identifierOrNil(), cursor.consume(")") else {
          throw OperatorFailure(cursor: cursor, start: start, notStart: notStart).error
        }
        config = language
      }
      guard cursor.consume(".") else {
        throw OperatorFailure(cursor: cursor, start: start, notStart: notStart).error
      }
      return .textSearch(textSearch, config: config, query: try value(&cursor, context: context))
    }
    guard let comparison = ComparisonOperator(rawValue: name) else {
      throw OperatorFailure(cursor: cursor, start: start, notStart: notStart).error
    }
    var quantifier: Quantifier? = nil
    if cursor.current == "(" && comparison.acceptsQuantifier {
      if cursor.consume("(any)") {
        quantifier = .any
      } else if cursor.consume("(all)") {
        quantifier = .all
      }
    }
    guard cursor.consume(".") else {
      throw OperatorFailure(cursor: cursor, start: start, notStart: notStart).error
    }
    return .compare(comparison, quantifier: quantifier, value: try value(&cursor, context: context))
  }

  /// A scalar operand: the rest of the parameter, or one `or=()` element.
  static func value(
    _ cursor: inout ParseCursor, context: ValueContext
  ) throws(RESTError) -> String {
    switch context {
    case .topLevel:
      return cursor.rest()
    case .logicTree:
      if cursor.current == "\"" {
        let save = cursor.position
        let quoted = try cursor.quotedValue()
        if cursor.isAtEnd || cursor.current == "," || cursor.current == ")" { return quoted }
        cursor.position = save
      }
      if cursor.currentByte == UInt8(ascii: "{") {
        var index = cursor.position + 1
        while index < cursor.bytes.count, cursor.bytes[index] != UInt8(ascii: "{"),
          cursor.bytes[index] != UInt8(ascii: "}")
        {
          index += 1
        }
        if index < cursor.bytes.count, cursor.bytes[index] == UInt8(ascii: "}") {
          let start = cursor.position
          cursor.position = index + 1
          return cursor.text(from: start)
        }
      }
      let start = cursor.position
      cursor.skip(until: UInt8(ascii: ","), UInt8(ascii: ")"))
      return cursor.text(from: start)
    }
  }

  /// `(a,"b,c", d)`: elements are `"quoted"` (backslash escapes) or raw up to `,`/`)`.
  static func list(_ cursor: inout ParseCursor) throws(RESTError) -> [String] {
    cursor.skipSpace()
    try cursor.expect("(")
    cursor.skipSpace()
    var elements: [String] = []
    repeat {
      elements.append(try listElement(&cursor))
    } while cursor.consume(",")
    try cursor.expect(")", "\",\" or \")\"")
    cursor.skipSpace()
    return elements
  }

  private static func listElement(_ cursor: inout ParseCursor) throws(RESTError) -> String {
    if cursor.current == "\"" {
      let save = cursor.position
      if let quoted = try? cursor.quotedValue(),
        cursor.isAtEnd || cursor.current == "," || cursor.current == ")"
      {
        return quoted
      }
      cursor.position = save
    }
    let start = cursor.position
    cursor.skip(until: UInt8(ascii: ","), UInt8(ascii: ")"))
    return cursor.text(from: start)
  }

  /// `null`, `not_null`, `true`, `false`, `unknown`, in any letter case.
  private static func isValue(_ cursor: inout ParseCursor) throws(RESTError) -> IsValue {
    let start = cursor.position
    while let byte = cursor.currentByte,
      (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || byte == 0x5F
    {
      cursor.position += 1
    }
    guard let value = IsValue(rawValue: cursor.text(from: start).lowercased()) else {
      cursor.position = start
      throw cursor.failure(expecting: "null or trilean value (unknown, true, false)")
    }
    return value
  }
}
