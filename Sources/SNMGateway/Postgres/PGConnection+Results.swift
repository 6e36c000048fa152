@preconcurrency import CLibPQ

#if canImport(Glibc)
  import Glibc
#endif

extension PGConnection {
  /// Calls `body` with C strings for `values` (`NULL` for `nil`): all of them in one buffer, each
  /// ending in NUL, freed afterwards.
  ///
  /// Throws `PGError` 22021 for a value with a NUL byte, which PostgreSQL text cannot hold.
  static func withCStrings<T>(
    _ values: [String?], _ body: ([UnsafePointer<CChar>?]) throws(PGError) -> T
  ) throws(PGError) -> T {
    var total = 0
    for value in values { total += (value?.utf8.count ?? 0) + 1 }
    // One buffer for every value's bytes (on the stack when small), the pointers into it made
    // as they are copied: no array of offsets, no second pass.
    let result = withUnsafeTemporaryAllocation(of: CChar.self, capacity: max(total, 1)) {
      buffer -> Result<T, PGError> in
      guard let base = buffer.baseAddress else {
        return .failure(PGError(kind: .client, message: "no memory for the parameters"))
      }
      var pointers: [UnsafePointer<CChar>?] = []
      pointers.reserveCapacity(values.count)
      var offset = 0
      for value in values {
        guard var value else {
          pointers.append(nil)
          continue
        }
        let start = base + offset
        let clean = value.withUTF8 { bytes -> Bool in
          guard let source = bytes.baseAddress, bytes.count > 0 else { return true }
          guard memchr(source, 0, bytes.count) == nil else { return false }
          UnsafeMutableRawPointer(start).copyMemory(from: source, byteCount: bytes.count)
          offset += bytes.count
          return true
        }
        guard clean else {
          return .failure(
            PGError(
              kind: .server, sqlState: "22021",
              message: "invalid byte sequence for encoding \"UTF8\": 0x00"))
        }
        base[offset] = 0
        offset += 1
        pointers.append(UnsafePointer(start))
      }
      do throws(PGError) {
        return .success(try body(pointers))
      } catch {
        return .failure(error)
      }
    }
    return try result.get()
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

  /// Reads a result without freeing it, except that `.cells` takes it over (`PGCells` frees it).
  /// Throws the result's error when it has one.
  static func convert(
    _ raw: OpaquePointer, connection: OpaquePointer, form: PGResultForm = .text
  ) throws(PGError) -> PGResult {
    let status = PQresultStatus(raw)
    switch status {
    case PGRES_TUPLES_OK, PGRES_COMMAND_OK, PGRES_EMPTY_QUERY, PGRES_SINGLE_TUPLE:
      switch form {
      case .text: return rows(of: raw)
      case .bytesColumn(let column): return rows(of: raw, bytesColumn: column)
      case .cells:
        // Taken over: the caller reads the cells in place, and `PGCells` frees the result
        // (`runPipeline` does not).
        var result = PGResult()
        result.cells = PGCells(taking: raw)
        return result
      case .discarded: return PGResult()
      }
    case PGRES_PIPELINE_ABORTED:
      throw PGError(
        kind: .server, message: "statement skipped: an earlier one in the pipeline failed")
    default:
      throw error(of: raw, connection: connection)
    }
  }

  /// The result as text, except `bytesColumn`'s values, kept as bytes (`columnBytes`).
  static func rows(of raw: OpaquePointer, bytesColumn: Int? = nil) -> PGResult {
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
    var columnBytes: [[UInt8]?] = []
    for row in 0..<rowCount {
      var values: [String?] = []
      values.reserveCapacity(columnCount)
      for column in 0..<columnCount {
        if column == bytesColumn {
          values.append(nil)
          if PQgetisnull(raw, Int32(row), Int32(column)) == 1 {
            columnBytes.append(nil)
          } else if let pointer = PQgetvalue(raw, Int32(row), Int32(column)) {
            let length = Int(PQgetlength(raw, Int32(row), Int32(column)))
            columnBytes.append(
              pointer.withMemoryRebound(to: UInt8.self, capacity: length) {
                Array(UnsafeBufferPointer(start: $0, count: length))
              })
          } else {
            columnBytes.append(nil)
          }
        } else if PQgetisnull(raw, Int32(row), Int32(column)) == 1 {
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
    var result = PGResult(
      columns: columns, columnTypes: types, rows: rows, affectedRows: Int(tuples) ?? 0,
      commandTag: tag)
    result.columnBytes = columnBytes
    return result
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
