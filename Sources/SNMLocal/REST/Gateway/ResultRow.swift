import SNMWire

/// The one row every request statement returns: total count, page count, body text, and how many
/// rows an upsert inserted.
struct ResultRow: Sendable {
  var total: Int?
  var pageTotal: Int
  var body: String
  var inserted: Int?

  init(_ result: PGResult) {
    let row = result.rows.first ?? []
    func cell(_ index: Int) -> String? { index < row.count ? row[index] : nil }
    total = cell(SQLWriter.ResultColumn.total).flatMap { Int($0) }
    pageTotal = cell(SQLWriter.ResultColumn.pageTotal).flatMap { Int($0) } ?? 0
    body = cell(SQLWriter.ResultColumn.body) ?? ""
    inserted = cell(SQLWriter.ResultColumn.inserted).flatMap { Int($0) }
  }

  /// "Plan Rows" of an `EXPLAIN (FORMAT JSON)` result, for planned counts.
  static func plannedRows(_ result: PGResult) -> Int? {
    guard let text = result.scalar, let plan = try? JSONValue(parsing: text) else { return nil }
    guard let first = plan.arrayValue?.first, let rows = first["Plan"]?["Plan Rows"] else {
      return nil
    }
    return rows.intValue ?? rows.doubleValue.map { Int($0) }
  }
}
