@preconcurrency import CLibPQ

#if canImport(Glibc)
  import Glibc
#endif

extension PGConnection {
  /// Calls `body` with C strings for `values` (`NULL` for `nil`), freed afterwards.
  ///
  /// Throws `PGError` 22021 for a value with a NUL byte, which PostgreSQL text cannot hold.
  static func withCStrings<T>(
    _ values: [String?], _ body: ([UnsafePointer<CChar>?]) throws(PGError) -> T
  ) throws(PGError) -> T {
    var pointers: [UnsafeMutablePointer<CChar>?] = []
    pointers.reserveCapacity(values.count)
    defer { for pointer in pointers { free(pointer) } }
    for value in values {
      guard let value else {
        pointers.append(nil)
        continue
      }
      guard !value.utf8.contains(0) else {
        throw PGError(
          kind: .server, sqlState: "22021",
          message: "invalid byte sequence for encoding \"UTF8\": 0x00")
      }
      guard let copy = strdup(value) else {
        throw PGError(kind: .client, message: "out of memory binding a parameter")
      }
      pointers.append(copy)
    }
    return try body(pointers.map { $0.map { UnsafePointer($0) } })
  }

  /// Turns a `PGresult` into a `PGResult` or a `PGError`, and frees it.
  static func consume(_ raw: OpaquePointer?, connection: OpaquePointer) throws(PGError) -> PGResult
  {
    guard let raw else {
      throw PGError(
        kind: PQstatus(connection) == CONNECTION_OK ? .client : .connection,
        sqlState: PQstatus(connection) == CONNECTION_OK ? nil : "08006",
        message: trimmed(PQerrorMessage(connection)))
    }
    defer { PQclear(raw) }
    return try convert(raw, connection: connection)
  }

  /// Reads a result without freeing it. Throws the result's error when it has one.
  static func convert(_ raw: OpaquePointer, connection: OpaquePointer) throws(PGError) -> PGResult {
    let status = PQresultStatus(raw)
    switch status {
    case PGRES_TUPLES_OK, PGRES_COMMAND_OK, PGRES_EMPTY_QUERY, PGRES_SINGLE_TUPLE:
      return rows(of: raw)
    case PGRES_PIPELINE_ABORTED:
      throw PGError(
        kind: .server, message: "statement skipped: an earlier one in the pipeline failed")
    default:
      throw error(of: raw, connection: connection)
    }
  }

  static func rows(of raw: OpaquePointer) -> PGResult {
    let columnCount = Int(PQnfields(raw))
    let rowCount = Int(PQntuples(raw))
    var columns: [String] = []
    var types: [UInt32] = []
    columns.reserveCapacity(columnCount)
    for column in 0..<columnCount {
      columns.append(PQfname(raw, Int32(column)).map { String(cString: $0) } ?? "?column?")
      types.append(UInt32(PQftype(raw, Int32(column))))
    }
    var rows: [[String?]] = []
    rows.reserveCapacity(rowCount)
    for row in 0..<rowCount {
      var values: [String?] = []
      values.reserveCapacity(columnCount)
      for column in 0..<columnCount {
        if PQgetisnull(raw, Int32(row), Int32(column)) == 1 {
          values.append(nil)
        } else if let pointer = PQgetvalue(raw, Int32(row), Int32(column)) {
          values.append(String(cString: pointer))
        } else {
          values.append(nil)
        }
      }
      rows.append(values)
    }
    let tuples = PQcmdTuples(raw).map { String(cString: $0) } ?? ""
    let tag = PQcmdStatus(raw).map { String(cString: $0) } ?? ""
    return PGResult(
      columns: columns, columnTypes: types, rows: rows, affectedRows: Int(tuples) ?? 0,
      commandTag: tag)
  }

  static func error(of raw: OpaquePointer, connection: OpaquePointer) -> PGError {
    func field(_ code: Character) -> String? {
      guard let ascii = code.asciiValue, let pointer = PQresultErrorField(raw, Int32(ascii)) else {
        return nil
      }
      return String(cString: pointer)
    }
    let sqlState = field("C")
    let message = field("M") ?? trimmed(PQresultErrorMessage(raw))
    let lost = PQstatus(connection) != CONNECTION_OK
    return PGError(
      kind: lost || (sqlState?.hasPrefix("08") ?? false) ? .connection : .server,
      sqlState: sqlState ?? (lost ? "08006" : nil), message: message, detail: field("D"),
      hint: field("H"))
  }

  static func trimmed(_ pointer: UnsafeMutablePointer<CChar>?) -> String {
    guard let pointer else { return "unknown libpq error" }
    let text = String(cString: pointer)
    var end = text.endIndex
    while end > text.startIndex, text[text.index(before: end)].isWhitespace {
      end = text.index(before: end)
    }
    return text.isEmpty ? "unknown libpq error" : String(text[..<end])
  }
}
