// Filters: `column=[not.]op[(modifier)].value`. Columns read like `SupabaseColumn(parsing:)`:
// `"messages.public"` filters the embedded `messages`, `"data->>blood"` follows a JSON path.
extension SupabaseQueryParameter {
  /// `column=eq.value`
  public static func equal(_ column: SupabaseColumn, _ value: some SupabaseQueryRepresentable)
    -> Self
  {
    filter(column, .eq, .value(value.queryValue))
  }

  /// `column=neq.value`
  public static func notEqual(_ column: SupabaseColumn, _ value: some SupabaseQueryRepresentable)
    -> Self
  {
    filter(column, .neq, .value(value.queryValue))
  }

  /// `column=gt.value`
  public static func greaterThan(_ column: SupabaseColumn, _ value: some SupabaseQueryRepresentable)
    -> Self
  {
    filter(column, .gt, .value(value.queryValue))
  }

  /// `column=gte.value`
  public static func greaterThanOrEqual(
    _ column: SupabaseColumn, _ value: some SupabaseQueryRepresentable
  ) -> Self {
    filter(column, .gte, .value(value.queryValue))
  }

  /// `column=lt.value`
  public static func lessThan(_ column: SupabaseColumn, _ value: some SupabaseQueryRepresentable)
    -> Self
  {
    filter(column, .lt, .value(value.queryValue))
  }

  /// `column=lte.value`
  public static func lessThanOrEqual(
    _ column: SupabaseColumn, _ value: some SupabaseQueryRepresentable
  )
    -> Self
  {
    filter(column, .lte, .value(value.queryValue))
  }

  /// `column=like.pattern` (`*` is an alias for `%`).
  public static func like(_ column: SupabaseColumn, _ pattern: String) -> Self {
    filter(column, .like, .value(.string(pattern)))
  }

  /// `column=ilike.pattern` (case-insensitive).
  public static func ilike(_ column: SupabaseColumn, _ pattern: String) -> Self {
    filter(column, .ilike, .value(.string(pattern)))
  }

  /// `column=match.regex` (POSIX `~`).
  public static func match(_ column: SupabaseColumn, _ regex: String) -> Self {
    filter(column, .match, .value(.string(regex)))
  }

  /// `column=imatch.regex` (POSIX `~*`).
  public static func imatch(_ column: SupabaseColumn, _ regex: String) -> Self {
    filter(column, .imatch, .value(.string(regex)))
  }

  /// `column=in.(v1,v2)`; elements with `,` `(` `)` `"` `\` `{` `}` or edge spaces are quoted.
  public static func `in`(_ column: SupabaseColumn, _ values: [any SupabaseQueryRepresentable])
    -> Self
  {
    filter(column, .in, .list(values.map(\.queryValue)))
  }

  /// `column=is.null|not_null|true|false|unknown`
  public static func `is`(_ column: SupabaseColumn, _ value: SupabaseIsValue) -> Self {
    filter(column, .is, .isValue(value))
  }

  /// `column=isdistinct.value` (IS DISTINCT FROM).
  public static func isDistinct(_ column: SupabaseColumn, _ value: some SupabaseQueryRepresentable)
    -> Self
  {
    filter(column, .isdistinct, .value(value.queryValue))
  }

  /// `column=cs.value`: contains an array (`{a,b}`), a range (`"[1,5)"`) or a JSON object.
  public static func contains(_ column: SupabaseColumn, _ value: some SupabaseQueryRepresentable)
    -> Self
  {
    filter(column, .cs, .value(value.queryValue))
  }

  /// `column=cd.value`: contained by.
  public static func containedBy(_ column: SupabaseColumn, _ value: some SupabaseQueryRepresentable)
    -> Self
  {
    filter(column, .cd, .value(value.queryValue))
  }

  /// `column=ov.value`: overlaps (arrays or ranges).
  public static func overlaps(_ column: SupabaseColumn, _ value: some SupabaseQueryRepresentable)
    -> Self
  {
    filter(column, .ov, .value(value.queryValue))
  }

  /// `column=sl.range`: strictly left of.
  public static func strictlyLeft(_ column: SupabaseColumn, _ range: String) -> Self {
    filter(column, .sl, .value(.string(range)))
  }

  /// `column=sr.range`: strictly right of.
  public static func strictlyRight(_ column: SupabaseColumn, _ range: String) -> Self {
    filter(column, .sr, .value(.string(range)))
  }

  /// `column=nxl.range`: does not extend to the left of.
  public static func notExtendingLeft(_ column: SupabaseColumn, _ range: String) -> Self {
    filter(column, .nxl, .value(.string(range)))
  }

  /// `column=nxr.range`: does not extend to the right of.
  public static func notExtendingRight(_ column: SupabaseColumn, _ range: String) -> Self {
    filter(column, .nxr, .value(.string(range)))
  }

  /// `column=adj.range`: adjacent to.
  public static func adjacent(_ column: SupabaseColumn, _ range: String) -> Self {
    filter(column, .adj, .value(.string(range)))
  }

  /// `column=[pl|ph|w]fts[(config)].query`
  public static func textSearch(
    _ column: SupabaseColumn, _ query: String, config: String? = nil,
    type: SupabaseTextSearchType = .tsquery
  ) -> Self {
    filter(column, type.filterOperator, config: config, .value(.string(query)))
  }

  /// `column=op(any).{v1,v2}`: `like(any)`, `eq(all)`, ... (`eq gt gte lt lte like ilike match imatch`).
  public static func quantified(
    _ column: SupabaseColumn, _ op: SupabaseFilterOperator, _ quantifier: SupabaseQuantifier,
    _ values: [any SupabaseQueryRepresentable]
  ) -> Self {
    filter(column, op, quantifier: quantifier, .value(.array(values.map(\.queryValue))))
  }

  /// `column=like(any).{p1,p2}`
  public static func likeAny(_ column: SupabaseColumn, _ patterns: [String]) -> Self {
    quantified(column, .like, .any, patterns)
  }

  /// `column=like(all).{p1,p2}`
  public static func likeAll(_ column: SupabaseColumn, _ patterns: [String]) -> Self {
    quantified(column, .like, .all, patterns)
  }

  /// `column=ilike(any).{p1,p2}`
  public static func ilikeAny(_ column: SupabaseColumn, _ patterns: [String]) -> Self {
    quantified(column, .ilike, .any, patterns)
  }

  /// `column=ilike(all).{p1,p2}`
  public static func ilikeAll(_ column: SupabaseColumn, _ patterns: [String]) -> Self {
    quantified(column, .ilike, .all, patterns)
  }

  /// `column=operator.value` with any operator and value text, passed through unchanged.
  public static func filter(_ column: SupabaseColumn, operator op: String, value: String) -> Self {
    SupabaseQueryParameter(
      .filter(column, Filter(op: .raw(op), negated: false, operand: .raw(value))))
  }

  /// `name=value` exactly as given (both still percent-encoded on the wire).
  public static func custom(_ name: String, _ value: String) -> Self {
    SupabaseQueryParameter(.custom(name: name, value: value))
  }

  /// Negates a filter (`name=not.eq.x`, `deleted_at=not.is.null`) or a group (`not.or=(...)`).
  /// Negating twice gives the original; negating a modifier (limit, order, ...) is refused when the
  /// request is built.
  public static func not(_ parameter: SupabaseQueryParameter) -> Self {
    switch parameter.kind {
    case .filter(let column, var filter):
      filter.negated.toggle()
      return SupabaseQueryParameter(.filter(column, filter))
    case .group(let isOr, let negated, let operands, let referencedTable):
      return SupabaseQueryParameter(
        .group(isOr: isOr, negated: !negated, operands: operands, referencedTable: referencedTable))
    default:
      return SupabaseQueryParameter(
        .group(isOr: false, negated: true, operands: [parameter], referencedTable: nil))
    }
  }

  /// `or=(a.eq.1,and(b.eq.2,c.eq.3))`. Operands are filters or groups. When every operand names the
  /// same embedded table (`messages.public`, `messages.to`) or `referencedTable` is given, the group
  /// filters the embedded rows: `messages.or=(public.eq.true,to.eq.1)`.
  public static func or(_ operands: [SupabaseQueryParameter], referencedTable: String? = nil)
    -> Self
  {
    SupabaseQueryParameter(
      .group(isOr: true, negated: false, operands: operands, referencedTable: referencedTable))
  }

  /// `and=(...)`: useful nested in ``or(_:referencedTable:)`` or negated; at the top level separate
  /// filters already combine with AND.
  public static func and(_ operands: [SupabaseQueryParameter], referencedTable: String? = nil)
    -> Self
  {
    SupabaseQueryParameter(
      .group(isOr: false, negated: false, operands: operands, referencedTable: referencedTable))
  }
}
