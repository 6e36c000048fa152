@preconcurrency import CLibPQ

/// A result as libpq made it, kept for reading after the pipeline (`PGResultForm.cells`) and
/// freed with the last reference: its cells are read in place, no Swift strings made and no
/// copy. For rows the gateway writes as JSON itself.
///
/// ```swift
/// cells.forEachRow { row in encoder.append(row, from: 0, to: &body) }
/// ```
/// A `PGresult` is read-only once made, and libpq lets it be passed between threads, hence
/// `@unchecked Sendable`; nothing here writes to it.
public final class PGCells: @unchecked Sendable, Equatable {
  let result: OpaquePointer
  /// The type OID of each column.
  public let types: [UInt32]
  public let rowCount: Int

  /// Takes over `result` (freed when this goes).
  init(taking result: OpaquePointer) {
    self.result = result
    types = (0..<PQnfields(result)).map { UInt32(PQftype(result, $0)) }
    rowCount = Int(PQntuples(result))
  }

  /// The column names (made when asked: a read needs them only to learn a new statement).
  public var columns: [String] {
    (0..<PQnfields(result)).map { PQfname(result, $0).map { String(cString: $0) } ?? "?column?" }
  }

  deinit { PQclear(result) }

  /// The bytes of every cell together.
  var byteCount: Int {
    var total = 0
    for row in 0..<Int32(rowCount) {
      for column in 0..<Int32(types.count) { total += Int(PQgetlength(result, row, column)) }
    }
    return total
  }

  /// Calls `body` with each row in order.
  func forEachRow(_ body: (PGRawRow) -> Void) {
    for row in 0..<Int32(rowCount) { body(PGRawRow(result: result, row: row)) }
  }

  public static func == (left: PGCells, right: PGCells) -> Bool { left === right }
}
