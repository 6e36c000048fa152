import SNMSupabase

/// A PostgREST filter operator as the language spells it: the request layer's
/// ``SupabaseFilterOperator`` (its raw value the wire name, `gte` in `age=gte.3`), one definition
/// for both layers; this file adds the language's spellings.
public typealias FilterOperator = SupabaseFilterOperator

extension SupabaseFilterOperator {
  /// The operator a keyword spells (`contains` is `cs`), if any.
  public init?(keyword: Keyword) {
    // One case a keyword, not `init(rawValue:)`: a string switch at every filter is measurable
    // in `snm check`.
    switch keyword {
    case .eq: self = .eq
    case .neq: self = .neq
    case .gt: self = .gt
    case .gte: self = .gte
    case .lt: self = .lt
    case .lte: self = .lte
    case .like: self = .like
    case .ilike: self = .ilike
    case .match: self = .match
    case .imatch: self = .imatch
    case .in: self = .in
    case .is: self = .is
    case .isdistinct: self = .isdistinct
    case .cs, .contains: self = .cs
    case .cd, .containedby: self = .cd
    case .ov, .overlaps: self = .ov
    case .sl: self = .sl
    case .sr: self = .sr
    case .nxl: self = .nxl
    case .nxr: self = .nxr
    case .adj: self = .adj
    case .fts: self = .fts
    case .plfts: self = .plfts
    case .phfts: self = .phfts
    case .wfts: self = .wfts
    default: return nil
    }
  }

  /// The operator a symbol spells (`>=` is `gte`), if any.
  public init?(symbol: TokenKind) {
    switch symbol {
    case .equal, .doubleEqual: self = .eq
    case .notEqual, .lessGreater: self = .neq
    case .greater: self = .gt
    case .greaterEqual: self = .gte
    case .less: self = .lt
    case .lessEqual: self = .lte
    case .tilde: self = .match
    case .tildeStar: self = .imatch
    default: return nil
    }
  }

  /// Every spelling the language accepts, for messages and completion.
  public static let spellings: [String] = [
    "eq", "=", "neq", "!=", "<>", "gt", ">", "gte", ">=", "lt", "<", "lte", "<=", "like", "ilike",
    "match", "~", "imatch", "~*", "in", "is", "isdistinct", "cs", "contains", "cd", "containedby",
    "ov", "overlaps", "sl", "sr", "nxl", "nxr", "adj", "fts", "plfts", "phfts", "wfts",
  ]

  /// The word forms, for did-you-mean suggestions.
  public static let words: [String] = spellings.filter { $0.first?.isLetter ?? false }

  /// The operator a spelling names (`gte`, `>=`, `contains`), if any.
  public static func spelled(_ text: String) -> FilterOperator? {
    switch text {
    case "=": .eq
    case "!=", "<>": .neq
    case ">": .gt
    case ">=": .gte
    case "<": .lt
    case "<=": .lte
    case "~": .match
    case "~*": .imatch
    case "contains": .cs
    case "containedby": .cd
    case "overlaps": .ov
    default: FilterOperator(rawValue: text)
    }
  }

  /// The operators PostgreSQL defines for a column of `type` (as the OpenAPI document names it:
  /// `integer`, `text`, `jsonb`, `text[]`, `int4range`), or nil for a type not known here (then
  /// every operator may fit).
  ///
  /// ```swift
  /// FilterOperator.fitting(type: "integer")   // eq, neq, gt, gte, lt, lte, in, is, isdistinct
  /// ```
  public static func fitting(type: String) -> Set<FilterOperator>? {
    let ordered: Set<FilterOperator> = [.eq, .neq, .gt, .gte, .lt, .lte, .in, .is, .isdistinct]
    if type.hasSuffix("[]") { return [.eq, .neq, .cs, .cd, .ov, .is, .isdistinct] }
    if type.hasSuffix("range") || type.hasSuffix("multirange") {
      return [.eq, .neq, .cs, .cd, .ov, .sl, .sr, .nxl, .nxr, .adj, .is, .isdistinct]
    }
    switch type {
    case "smallint", "integer", "bigint", "numeric", "real", "double precision", "money", "uuid",
      "date", "interval", "inet", "cidr", "macaddr", "oid":
      return ordered
    case "text", "character varying", "character", "varchar", "char", "citext", "name", "bpchar":
      return ordered.union([.like, .ilike, .match, .imatch, .fts, .plfts, .phfts, .wfts])
    case "boolean": return [.eq, .neq, .is, .isdistinct, .in]
    case "jsonb": return [.eq, .neq, .cs, .cd, .in, .is, .isdistinct]
    case "json": return [.is, .isdistinct]
    case "tsvector": return [.fts, .plfts, .phfts, .wfts, .is]
    default:
      if type.hasPrefix("timestamp") || type.hasPrefix("time") { return ordered }
      return nil
    }
  }
}
