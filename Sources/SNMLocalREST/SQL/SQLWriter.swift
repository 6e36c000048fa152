import SNMGateway

/// Accumulates one SQL statement and its parameters.
///
/// Values from a request only ever enter through `bind`, which appends a `$n` placeholder;
/// identifiers only through `identifier` / `QualifiedName.sql`, which quote them. Everything else
/// written with `append` is the gateway's own SQL text.
///
///     var sql = SQLWriter()
///     sql.append("SELECT * FROM ")
///     sql.append(table.sql)
///     sql.append(" WHERE \"id\" = ")
///     sql.bind("42")
///     sql.statement   // PGStatement("SELECT * FROM \"public\".\"t\" WHERE \"id\" = $1", ["42"])
struct SQLWriter {
  /// Room for a usual statement from the start: each doubling of a growing string was a copy.
  private(set) var text = SQLWriter.emptyText
  private(set) var parameters: [String?] = []
  /// A condition of the gateway's own written first in the root level's WHERE (a read's
  /// schema-version guard, `ClaimsPolicies.condition`); it binds nothing, so the statement's
  /// parameters are those written without it.
  var guardCondition: String?

  private static var emptyText: String {
    var text = ""
    text.reserveCapacity(480)
    return text
  }

  /// Appends the gateway's own SQL text.
  mutating func append(_ sql: String) {
    text += sql
  }

  /// Appends a quoted identifier.
  mutating func identifier(_ name: String) {
    text += SQLText.identifier(name)
  }

  /// Binds `value` as the next parameter and appends its placeholder.
  mutating func bind(_ value: String?) {
    parameters.append(value)
    text += "$\(parameters.count)"
  }

  /// Appends an integer as a literal: `LIMIT`/`OFFSET`, which PostgREST writes as literals too.
  /// A bound `LIMIT $n` leaves Postgres' generic plan without a row estimate (it assumes a tenth
  /// of the table), so every execution of the prepared statement is planned afresh.
  mutating func integer(_ value: Int) {
    text += String(value)
  }

  /// Binds `value` and appends `$n::type` (the type is the gateway's or the catalog's text).
  mutating func bind(_ value: String?, as type: String) {
    bind(value)
    text += "::" + type
  }

  /// Appends `items` separated by `separator`, each written by `write`.
  mutating func join<T>(
    _ items: [T], separator: String, _ write: (inout SQLWriter, T) throws(RESTError) -> Void
  ) throws(RESTError) {
    for (index, item) in items.enumerated() {
      if index > 0 { text += separator }
      try write(&self, item)
    }
  }

  /// The statement for the database layer.
  var statement: PGStatement { PGStatement(text, parameters) }
}
