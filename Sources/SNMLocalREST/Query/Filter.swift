/// A horizontal filter: `col[->path]=[not.]op[(mod)].value`.
struct Filter: Sendable, Equatable {
  var field: FieldPath
  var expression: OperatorExpression
}

/// `[not.]operation`.
struct OperatorExpression: Sendable, Equatable {
  var negated: Bool
  var operation: FilterOperation
}

/// What a filter tests.
enum FilterOperation: Sendable, Equatable {
  /// `eq.5`, `like(any).{a*,b*}`; the quantifier makes the value a Postgres array literal.
  case compare(ComparisonOperator, quantifier: Quantifier?, value: String)
  /// `in.(a,b)`; elements already unquoted.
  case list([String])
  /// `is.null`, `is.not_null`, `is.true`, ...
  case isValue(IsValue)
  /// `isdistinct.value`.
  case isDistinct(String)
  /// `fts(config).query` and its plain, phrase and websearch forms.
  case textSearch(TextSearchOperator, config: String?, query: String)
}

/// Operators that compare a column with one value (ref §2.3).
enum ComparisonOperator: String, Sendable, CaseIterable {
  case eq, neq, gt, gte, lt, lte, like, ilike, match, imatch
  case cs, cd, ov, sl, sr, nxr, nxl, adj

  /// The SQL operator.
  var sql: String {
    switch self {
    case .eq: "="
    case .neq: "<>"
    case .gt: ">"
    case .gte: ">="
    case .lt: "<"
    case .lte: "<="
    case .like: "LIKE"
    case .ilike: "ILIKE"
    case .match: "~"
    case .imatch: "~*"
    case .cs: "@>"
    case .cd: "<@"
    case .ov: "&&"
    case .sl: "<<"
    case .sr: ">>"
    case .nxr: "&<"
    case .nxl: "&>"
    case .adj: "-|-"
    }
  }

  /// Whether `(any)` / `(all)` may follow it.
  var acceptsQuantifier: Bool {
    switch self {
    case .eq, .gt, .gte, .lt, .lte, .like, .ilike, .match, .imatch: true
    default: false
    }
  }
}

/// `(any)` or `(all)` after an operator.
enum Quantifier: String, Sendable {
  case any, all
}

/// The operand of `is`.
enum IsValue: String, Sendable {
  case null, notNull = "not_null", `true`, `false`, unknown

  var sql: String {
    switch self {
    case .null: "NULL"
    case .notNull: "NOT NULL"
    case .true: "TRUE"
    case .false: "FALSE"
    case .unknown: "UNKNOWN"
    }
  }
}

/// Full-text search operators and the tsquery function each one uses.
enum TextSearchOperator: String, Sendable, CaseIterable {
  case fts, plfts, phfts, wfts

  var function: String {
    switch self {
    case .fts: "to_tsquery"
    case .plfts: "plainto_tsquery"
    case .phfts: "phraseto_tsquery"
    case .wfts: "websearch_to_tsquery"
    }
  }
}
