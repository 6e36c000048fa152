@preconcurrency import CLibPQ

#if canImport(Glibc)
  import Glibc
#endif

/// One row of a result as libpq holds it: its cells' bytes, valid only inside the callback that
/// was given it (never copied into Swift strings).
/// `cell` is inlinable: the services' JSON writers call it for every cell of a page.
@usableFromInline package struct PGRawRow {
  @usableFromInline let result: OpaquePointer
  @usableFromInline let row: Int32

  @usableFromInline init(result: OpaquePointer, row: Int32) {
    self.result = result
    self.row = row
  }

  /// The bytes of `column` (text format), or nil for NULL. libpq gives a NULL the length 0,
  /// so only an empty cell is asked whether it is NULL: two calls a cell, not three.
  @inlinable package func cell(_ column: Int32) -> UnsafeRawBufferPointer? {
    let length = PQgetlength(result, row, column)
    if length == 0, PQgetisnull(result, row, column) != 0 { return nil }
    guard let value = PQgetvalue(result, row, column) else { return nil }
    return UnsafeRawBufferPointer(start: value, count: Int(length))
  }

  /// `cell` as it asked libpq before (NULL first, then the value and its length), what it
  /// stands in for (`PGCellsTests`).
  func cellAskingNullFirst(_ column: Int32) -> UnsafeRawBufferPointer? {
    guard PQgetisnull(result, row, column) == 0, let value = PQgetvalue(result, row, column)
    else { return nil }
    return UnsafeRawBufferPointer(start: value, count: Int(PQgetlength(result, row, column)))
  }

  /// The cell of `column` as text (nil for NULL).
  package func text(_ column: Int32) -> String? {
    cell(column).map { String(decoding: $0, as: UTF8.self) }
  }

  /// The cell of `column` as an integer (nil for NULL or non-numbers).
  func integer(_ column: Int32) -> Int? {
    text(column).flatMap { Int($0) }
  }
}

extension PGConnection {
  /// Runs `sql` (no parameters: a `FETCH` of a cursor) and hands each row to `row` as libpq
  /// holds it; returns how many rows there were.
  ///
  /// ```swift
  /// let count = try connection.forEachRow("FETCH FORWARD 1000 FROM c", interrupt: i) { row in
  ///   out.append(contentsOf: row.cell(0)!)
  /// }
  /// ```
  /// Throws `PGError` as `pipeline` does (`.interrupted` when the interrupt cancelled it).
  package func forEachRow(
    _ sql: String, interrupt: PGInterrupt?, _ row: (PGRawRow) -> Void
  ) throws(PGError) -> Int {
    let started = monotonicSeconds()
    defer { noteUse(grew: false, seconds: monotonicSeconds() - started) }
    noteOtherCode()
    return try handle.withLock { connection throws(PGError) -> Int in
      guard let connection else { throw Self.closedError }
      guard snm_pq_send_text_params(connection, sql, 0, nil) == 1 else {
        throw PGError(
          kind: .connection, sqlState: "08006", message: Self.trimmed(PQerrorMessage(connection)))
      }
      var waiter = PGResultWaiter(connection: connection, interrupt: interrupt)
      waiter.begin()
      defer { waiter.end() }
      var count = 0
      var failure: PGError?
      while true {
        waiter.awaitResult()
        guard let raw = PQgetResult(connection) else { break }
        switch PQresultStatus(raw) {
        case PGRES_TUPLES_OK, PGRES_SINGLE_TUPLE:
          let rows = PQntuples(raw)
          for index in 0..<rows { row(PGRawRow(result: raw, row: index)) }
          count += Int(rows)
        case PGRES_COMMAND_OK:
          break
        default:
          if failure == nil { failure = Self.error(of: raw, connection: connection) }
        }
        PQclear(raw)
      }
      if let reason = waiter.cancelled, failure != nil || PQstatus(connection) != CONNECTION_OK {
        throw PGError.interrupted(reason)
      }
      if PQstatus(connection) != CONNECTION_OK, failure == nil {
        failure = PGError(
          kind: .connection, sqlState: "08006", message: Self.trimmed(PQerrorMessage(connection)))
      }
      if let failure { throw failure }
      return count
    }
  }
}

extension PGError {
  /// The error of statements an interrupt cancelled.
  static func interrupted(_ reason: PGInterrupt.Reason) -> PGError {
    PGError(
      kind: .interrupted(reason), sqlState: "57014",
      message: reason == .deadline
        ? "canceling statement due to statement timeout"
        : "canceling statement: the client closed its connection")
  }
}
