/// PostgREST's filter operators (postgrest-protocol.md §2.3), by their wire names.
public enum SupabaseFilterOperator: String, Sendable, Hashable, CaseIterable {
  case eq, neq, gt, gte, lt, lte
  case like, ilike, match, imatch
  case `in`, `is`, isdistinct
  case cs, cd, ov, sl, sr, nxl, nxr, adj
  case fts, plfts, phfts, wfts

  /// `true` for the operators that take `(any)`/`(all)` with an array of values.
  public var takesQuantifier: Bool {
    switch self {
    case .eq, .gt, .gte, .lt, .lte, .like, .ilike, .match, .imatch: true
    default: false
    }
  }

  /// `true` for the full-text search operators, which take an optional `(config)`.
  public var isTextSearch: Bool {
    switch self {
    case .fts, .plfts, .phfts, .wfts: true
    default: false
    }
  }
}

/// `like(any)` / `like(all)`: the operator holds for any or all of an array of values.
public enum SupabaseQuantifier: String, Sendable, Hashable {
  case any, all
}

/// The right-hand side of `is`.
public enum SupabaseIsValue: String, Sendable, Hashable {
  case null
  /// `is.not_null` (PostgREST 13+); `not(.is(col, .null))` sends `not.is.null`, which works everywhere.
  case notNull = "not_null"
  case `true`
  case `false`
  case unknown
}

/// `count=` in `Prefer`.
public enum SupabaseCountOption: String, Sendable, Hashable, CaseIterable {
  case exact, planned, estimated
}

/// Full-text search flavours: `fts` (to_tsquery), `plfts` (plain), `phfts` (phrase), `wfts` (web search).
public enum SupabaseTextSearchType: Sendable, Hashable {
  case tsquery, plain, phrase, websearch

  var filterOperator: SupabaseFilterOperator {
    switch self {
    case .tsquery: .fts
    case .plain: .plfts
    case .phrase: .phfts
    case .websearch: .wfts
    }
  }
}

/// One `order=` item: a column, a direction and a nulls position, each only when written.
public struct SupabaseOrder: Sendable, Hashable {
  public enum Nulls: String, Sendable, Hashable {
    case first = "nullsfirst"
    case last = "nullslast"
  }

  /// The column; an embed path orders the embedded rows (`countries.order=name`).
  public var column: SupabaseColumn
  /// nil sends no direction (PostgREST's default, ascending).
  public var ascending: Bool?
  /// nil sends no nulls clause.
  public var nulls: Nulls?

  public init(_ column: SupabaseColumn, ascending: Bool? = nil, nulls: Nulls? = nil) {
    self.column = column
    self.ascending = ascending
    self.nulls = nulls
  }

  /// `name.desc.nullslast`, `id`.
  var wire: String {
    var text = column.withoutEmbedPath.wireName
    if let ascending { text += ascending ? ".asc" : ".desc" }
    if let nulls { text += "." + nulls.rawValue }
    return text
  }
}
