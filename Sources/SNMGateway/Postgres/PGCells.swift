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
  @usableFromInline let result: OpaquePointer
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

  /// The row at `index` (below `rowCount`).
  @inlinable package func row(_ index: Int) -> PGRawRow {
    PGRawRow(result: result, row: Int32(index))
  }

  /// Calls `body` with each row in order (inlinable, as `PGRawRow.cell`: once per row).
  @inlinable package func forEachRow(_ body: (PGRawRow) -> Void) {
    for index in 0..<rowCount { body(row(index)) }
  }

  public static func == (left: PGCells, right: PGCells) -> Bool { left === right }
}
