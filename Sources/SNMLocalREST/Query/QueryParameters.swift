import SNMWire

/// The query string of one REST request, classified and parsed as PostgREST does
/// (QueryParams.hs `parse`).
///
/// - `select`, `columns`, `on_conflict`: reserved, top level only (the first one counts);
/// - keys whose last dot-segment is `order`, `limit`, `offset`, `and`, `or`: reserved, may carry
///   an embed path (`actors.order`, `not.or`, `messages.or`);
/// - a key with a dot, or a value that starts with an operator: a filter;
/// - anything else is a function argument (for `rpc` GET) and is ignored on tables.
///
///     let query = try QueryParameters.parse("select=*,messages(*)&messages.or=(a.eq.1)&id=eq.3")
struct QueryParameters: Sendable {
  /// The embed path a filter, order or range applies to: `[]` is the resource itself.
  typealias EmbedPath = [String]

  /// A `limit` / `offset` pair for one level.
  struct Range: Sendable, Equatable {
    var offset: Int = 0
    var limit: Int?
  }

  var select: [SelectItem] = [.field(SelectField(field: FieldPath(name: "*")))]
  /// Whether `select=` was written (writes return nothing without it).
  var hasSelect = false
  var filters: [(path: EmbedPath, filter: Filter)] = []
  var logic: [(path: EmbedPath, tree: LogicTree)] = []
  var order: [(path: EmbedPath, terms: [OrderTerm])] = []
  var ranges: [EmbedPath: Range] = [:]
  var columns: [String]?
  var onConflict: [String]?
  /// Parameters without an operator, in order: the arguments of an `rpc` GET.
  var arguments: [(name: String, value: String)] = []

  /// The largest `limit`/`offset` (and `Range` bound) accepted: 2^53 - 1, so range arithmetic
  /// cannot overflow.
  static let largestRow = 9_007_199_254_740_991

  static let reservedTopLevel: Set<String> = ["select", "columns", "on_conflict"]
  static let reservedEmbeddable: Set<String> = ["order", "limit", "offset", "and", "or"]

  static func parse(_ raw: String) throws(RESTError) -> QueryParameters {
    try parse(pairs: QueryString.parse(raw))
  }

  static func parse(pairs: [QueryString.Pair]) throws(RESTError) -> QueryParameters {
    var query = QueryParameters()
    var seen: Set<String> = []
    for pair in pairs {
      guard let value = pair.value else { continue }
      let key = pair.key
      if reservedTopLevel.contains(key) {
        guard seen.insert(key).inserted else { continue }
        switch key {
        case "select":
          query.select = value.isEmpty ? query.select : try SelectParser.parse(value)
          query.hasSelect = true
        case "columns": query.columns = try names(value, parameter: "columns")
        default: query.onConflict = try names(value, parameter: "on_conflict")
        }
        continue
      }
      let lastSegment =
        key.utf8.lastIndex(of: UInt8(ascii: ".")).map { String(key[key.index(after: $0)...]) }
        ?? key
      if reservedEmbeddable.contains(lastSegment) {
        try query.addReserved(key: key, last: lastSegment, value: value)
      } else if key.utf8.contains(UInt8(ascii: ".")) || hasOperator(value) {
        let (path, field) = try treePath(key)
        query.filters.append(
          (path, Filter(field: field, expression: try FilterParser.parse(value))))
      } else {
        query.arguments.append((key, value))
      }
    }
    return query
  }

  private mutating func addReserved(key: String, last: String, value: String) throws(RESTError) {
    switch last {
    case "order":
      let (path, _) = try QueryParameters.treePath(key)
      order.append((path, try OrderParser.parse(value)))
    case "limit", "offset":
      let (path, _) = try QueryParameters.treePath(key)
      guard let number = Int(value.trimmingSpaces()), abs(number) <= QueryParameters.largestRow
      else {
        throw RESTError.queryParse(
          source: "failed to parse \(last) parameter (\(value))", column: 1,
          details: "\(last) must be a whole number up to \(QueryParameters.largestRow)")
      }
      var range = ranges[path] ?? Range()
      if last == "limit" {
        guard number >= 0 else {
          throw RESTError.invalidRange("Limit should be greater than or equal to zero.")
        }
        range.limit = number
      } else {
        // A negative offset is a no-op at the top level (PostgREST intersects it with [0, ∞)).
        range.offset = number
      }
      ranges[path] = range
    default:
      // `[embed.][not.]or`: "not" may appear anywhere in the path and negates the tree.
      var cursor = ParseCursor(key, what: "logic path")
      var segments: [String] = []
      repeat {
        segments.append(try cursor.fieldName())
      } while cursor.consume(".")
      if !cursor.isAtEnd { throw cursor.failure(expecting: "delimiter (.) or end of input") }
      let negated = segments.dropLast().contains("not")
      let path = segments.dropLast().filter { $0 != "not" }
      let conjunction: LogicTree.Conjunction = last == "and" ? .and : .or
      logic.append(
        (Array(path), try LogicParser.parse(conjunction: conjunction, negated: negated, value)))
    }
  }

  /// `a.b.col->path` as (embed path `[a, b]`, field `col->path`).
  static func treePath(_ key: String) throws(RESTError) -> (EmbedPath, FieldPath) {
    // Most keys are one plain column name.
    if !key.isEmpty,
      key.utf8.allSatisfy({ byte in
        (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A)
          || (byte >= 0x30 && byte <= 0x39) || byte == 0x5F || byte == 0x24
      })
    {
      return ([], FieldPath(name: key))
    }
    var cursor = ParseCursor(key, what: "tree path")
    var names: [String] = []
    repeat {
      names.append(try cursor.fieldName())
    } while cursor.consume(".")
    let path = try cursor.jsonPath()
    if !cursor.isAtEnd {
      throw cursor.failure(expecting: "\"->\", delimiter (.) or end of input")
    }
    let column = names.removeLast()
    return (names, FieldPath(name: column, path: path))
  }

  /// `a,"b c",d` (PostgREST's `pColumns`).
  static func names(_ text: String, parameter: String) throws(RESTError) -> [String] {
    var cursor = ParseCursor(
      text, what: parameter == "columns" ? "columns parameter" : "on_conflict parameter")
    var names: [String] = []
    repeat {
      cursor.skipSpace()
      names.append(try cursor.fieldName())
      cursor.skipSpace()
    } while cursor.consume(",")
    if !cursor.isAtEndButClosingParentheses {
      throw cursor.failure(expecting: "\",\" or end of input")
    }
    return names
  }

  /// Whether a value starts with an operator (`not.x`, `is.`, `in.`, `eq.`, `fts(`...).
  static func hasOperator(_ value: String) -> Bool {
    let utf8 = value.utf8
    guard let dot = utf8.firstIndex(of: UInt8(ascii: ".")) else {
      // `fts(config)` without a value still names an operator.
      if let paren = utf8.firstIndex(of: UInt8(ascii: "(")) {
        return TextSearchOperator(rawValue: String(value[..<paren])) != nil
      }
      return false
    }
    let first = String(value[..<dot])
    if first == "not" || first == "is" || first == "in" || first == "isdistinct" { return true }
    if ComparisonOperator(rawValue: first) != nil || TextSearchOperator(rawValue: first) != nil {
      return true
    }
    // `like(any).`, `fts(english).`
    if let paren = first.utf8.firstIndex(of: UInt8(ascii: "(")), first.hasSuffix(")") {
      let name = String(first[..<paren])
      return ComparisonOperator(rawValue: name) != nil || TextSearchOperator(rawValue: name) != nil
    }
    if let paren = utf8.firstIndex(of: UInt8(ascii: "(")) {
      return TextSearchOperator(rawValue: String(value[..<paren])) != nil
    }
    return false
  }
}
