/// One part of a query: a filter, a logical group, or a modifier (select, order, limit, single,
/// count, ...). Build them with the static functions and pass them to `setQuery`.
///
/// ```swift
/// try await remoteDBManager.fetchData().setTable("user_info")
///   .setQuery(.select("*"), .greaterThanOrEqual("age", 3), .ilike("name", "ba*"))
///   .request()
/// // GET /rest/v1/user_info?select=*&age=gte.3&name=ilike.ba*   (percent-encoded on the wire)
/// ```
///
/// Filters: ``equal(_:_:)`` ... ``custom(_:_:)``, ``not(_:)``, ``or(_:referencedTable:)``,
/// ``and(_:referencedTable:)``. Modifiers: ``select(_:)-(String)``, ``order(_:ascending:nulls:)``,
/// ``limit(_:referencedTable:)``, ``offset(_:referencedTable:)``, ``single``, ``maybeSingle``,
/// ``count(_:)``, ``returning(_:)-(String)``, ``onConflict(_:)``, ``ignoreDuplicates``, ``mergeDuplicates``, ``columns(_:)``,
/// ``schema(_:)``, ``csv``.
public struct SupabaseQueryParameter: Sendable, Hashable {
  /// What the parameter does; the builder and the renderers read it.
  package indirect enum Kind: Sendable, Hashable {
    case filter(SupabaseColumn, Filter)
    case group(
      isOr: Bool, negated: Bool, operands: [SupabaseQueryParameter], referencedTable: String?)
    case select(SupabaseSelectList, returning: Bool)
    case order([SupabaseOrder])
    case limit(Int, referencedTable: String?)
    case offset(Int, referencedTable: String?)
    case single
    case maybeSingle
    case count(SupabaseCountOption)
    case onConflict([String])
    case ignoreDuplicates
    case mergeDuplicates
    case columns([String])
    case schema(String)
    case csv
    case custom(name: String, value: String)
    /// HEAD instead of GET: the count in `Content-Range`, no rows.
    case head
    /// `Prefer: handling=strict, max-affected=N`.
    case maxAffected(Int)
    /// `Prefer: tx=rollback`.
    case rollback
    /// The body (a string) goes as `text/csv`.
    case csvBody
    /// `Accept: application/vnd.pgrst.plan+text` with these `EXPLAIN` options.
    case plan([String])
    /// `Prefer: timezone=...`.
    case timezone(String)
  }

  /// A filter's operator, modifiers and operand.
  package struct Filter: Sendable, Hashable {
    package var op: Operator
    package var negated: Bool
    package var operand: Operand
  }

  /// A known operator with its modifier, or one passed through by name.
  package enum Operator: Sendable, Hashable {
    case known(SupabaseFilterOperator, quantifier: SupabaseQuantifier?, config: String?)
    case raw(String)
  }

  /// What follows the operator.
  package enum Operand: Sendable, Hashable {
    case value(SupabaseQueryValue)
    case list([SupabaseQueryValue])
    case isValue(SupabaseIsValue)
    case raw(String)
  }

  package let kind: Kind

  package init(_ kind: Kind) {
    self.kind = kind
  }

  static func filter(
    _ column: SupabaseColumn, _ op: SupabaseFilterOperator, quantifier: SupabaseQuantifier? = nil,
    config: String? = nil, _ operand: Operand
  ) -> SupabaseQueryParameter {
    SupabaseQueryParameter(
      .filter(
        column,
        Filter(
          op: .known(op, quantifier: quantifier, config: config), negated: false, operand: operand))
    )
  }
}
