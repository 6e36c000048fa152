import SNMGateway
import SNMWire

/// The one row every request statement returns: total count, page count, body text, and how many
/// rows an upsert inserted.
struct ResultRow: Sendable {
  var total: Int?
  var pageTotal: Int
  /// The body's UTF-8 as Postgres sent it (the statement's `bytesColumn`), else its text's.
  var bodyUTF8: [UInt8]
  var inserted: Int?
  /// `response.headers` and `response.status` as the statement left them, if set.
  var responseHeaders: String?
  var responseStatus: String?

  init(_ result: PGResult) {
    let row = result.rows.first ?? []
    func cell(_ index: Int) -> String? { index < row.count ? row[index] : nil }
    total = cell(SQLWriter.ResultColumn.total).flatMap { Int($0) }
    pageTotal = cell(SQLWriter.ResultColumn.pageTotal).flatMap { Int($0) } ?? 0
    if let bytes = result.columnBytes.first {
      bodyUTF8 = bytes ?? []
    } else {
      bodyUTF8 = Array((cell(SQLWriter.ResultColumn.body) ?? "").utf8)
    }
    inserted = cell(SQLWriter.ResultColumn.inserted).flatMap { Int($0) }
    responseHeaders = Self.setting(cell(SQLWriter.ResultColumn.responseHeaders))
    responseStatus = Self.setting(cell(SQLWriter.ResultColumn.responseStatus))
  }

  /// A `current_setting(name, true)` as PostgREST reads it (`nullif(…, '')`): nil when it was
  /// never set (null) or was set on this connection before and reads as '' now.
  static func setting(_ text: String?) -> String? {
    guard let text, !text.isEmpty else { return nil }
    return text
  }

  /// The body as text.
  var body: String { String(decoding: bodyUTF8, as: UTF8.self) }

  /// The body's bytes: text as it is, a binary handler's hex (`encode(..., 'hex')`) decoded.
  func bodyBytes(binary: Bool) -> [UInt8] {
    guard binary else { return bodyUTF8 }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(bodyUTF8.count / 2)
    var high: UInt8? = nil
    for character in bodyUTF8 {
      let nibble: UInt8
      switch character {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = character - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = character - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): nibble = character - UInt8(ascii: "A") + 10
      default: continue
      }
      if let first = high {
        bytes.append(first << 4 | nibble)
        high = nil
      } else {
        high = nibble
      }
    }
    return bytes
  }

  /// The total for `Content-Range`: exact, planned (`EXPLAIN`, the second of `results`), or
  /// estimated as PostgREST 13's `resultSetWTotal` does: the exact count, counted to at most
  /// max-rows + 1; past max-rows the larger of that count and the planned one (so at least
  /// max-rows + 1). With no max-rows every count is past it (`Just n > Nothing`): the larger of
  /// the exact and the planned count.
  func total(results: [PGResult], count: CountMethod?, maxRows: Int?) -> Int? {
    switch count {
    case nil: return nil
    case .exact: return total
    case .planned: return results.count > 1 ? Self.plannedRows(results[1]) : total
    case .estimated:
      guard let exact = total, exact > maxRows ?? -1, results.count > 1 else { return total }
      return max(exact, Self.plannedRows(results[1]) ?? exact)
    }
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
