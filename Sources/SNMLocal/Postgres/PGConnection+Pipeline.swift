@preconcurrency import CLibPQ

extension PGConnection {
  /// Sends all statements, one sync, then reads every result (libpq pipeline mode).
  ///
  /// Throws the first failing statement's `PGError`; the connection leaves pipeline mode either way.
  static func runPipeline(
    _ statements: [PGStatement], connection: OpaquePointer
  ) throws(PGError) -> [PGResult] {
    guard PQenterPipelineMode(connection) == 1 else {
      throw PGError(kind: .client, message: trimmed(PQerrorMessage(connection)))
    }
    defer { _ = PQexitPipelineMode(connection) }
    var sendError: PGError?
    var sent = 0
    for statement in statements {
      do {
        let ok = try withCStrings(statement.parameters) { values throws(PGError) in
          snm_pq_send_text_params(connection, statement.sql, Int32(values.count), values)
        }
        guard ok == 1 else {
          sendError = PGError(kind: .connection, message: trimmed(PQerrorMessage(connection)))
          break
        }
        sent += 1
      } catch {
        sendError = error
        break
      }
    }
    guard PQpipelineSync(connection) == 1 else {
      throw PGError(
        kind: .connection, sqlState: "08006", message: trimmed(PQerrorMessage(connection)))
    }
    var results: [PGResult] = []
    var firstError: PGError?
    for _ in 0..<sent {
      // Each statement yields its result(s) and then NULL.
      while let raw = PQgetResult(connection) {
        do {
          let converted = try convert(raw, connection: connection)
          if firstError == nil { results.append(converted) }
        } catch {
          if firstError == nil { firstError = error }
        }
        PQclear(raw)
      }
      if PQstatus(connection) != CONNECTION_OK { break }
    }
    // Drain up to and including the sync marker.
    while PQstatus(connection) == CONNECTION_OK, let raw = PQgetResult(connection) {
      let status = PQresultStatus(raw)
      PQclear(raw)
      if status == PGRES_PIPELINE_SYNC { break }
    }
    if PQstatus(connection) != CONNECTION_OK, firstError == nil {
      firstError = PGError(
        kind: .connection, sqlState: "08006", message: trimmed(PQerrorMessage(connection)))
    }
    if let error = firstError ?? sendError { throw error }
    return results
  }
}
