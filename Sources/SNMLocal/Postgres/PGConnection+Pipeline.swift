@preconcurrency import CLibPQ
import Synchronization

extension PGConnection {
  /// Sends all statements, one sync, then reads every result (libpq pipeline mode).
  ///
  /// Throws the first failing statement's `PGError`; the connection leaves pipeline mode either way.
  static func runPipeline(
    _ statements: [PGStatement], connection: OpaquePointer,
    prepared: inout PreparedStatements
  ) throws(PGError) -> [PGResult] {
    guard PQenterPipelineMode(connection) == 1 else {
      throw PGError(kind: .client, message: trimmed(PQerrorMessage(connection)))
    }
    defer { _ = PQexitPipelineMode(connection) }
    var sendError: PGError?
    // What each sent command was: a statement's execution, or the PREPARE of a new name.
    var sentCommands: [PipelineCommand] = []
    var known = prepared.names
    for statement in statements {
      do throws(PGError) {
        var name: String? = nil
        if statement.prepared {
          if let existing = known[statement.sql] {
            name = existing
          } else if known.count < PGConnection.preparedLimit {
            // Names are never reused, so a PREPARE whose outcome was lost cannot collide.
            let fresh = "snm_p\(prepared.next)"
            prepared.next += 1
            guard
              snm_pq_send_prepare(
                connection, fresh, statement.sql, Int32(statement.parameters.count)) == 1
            else {
              sendError = PGError(kind: .connection, message: trimmed(PQerrorMessage(connection)))
              break
            }
            sentCommands.append(.prepare(sql: statement.sql, name: fresh))
            known[statement.sql] = fresh
            name = fresh
          }
        }
        let ok = try withCStrings(statement.parameters) { values throws(PGError) in
          if let name {
            return snm_pq_send_query_prepared(connection, name, Int32(values.count), values)
          }
          return snm_pq_send_text_params(connection, statement.sql, Int32(values.count), values)
        }
        guard ok == 1 else {
          sendError = PGError(kind: .connection, message: trimmed(PQerrorMessage(connection)))
          break
        }
        sentCommands.append(.statement)
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
    var preparedNow: [(String, String)] = []
    for command in sentCommands {
      // Each command yields its result(s) and then NULL.
      while let raw = PQgetResult(connection) {
        do {
          let converted = try convert(raw, connection: connection)
          switch command {
          case .statement: if firstError == nil { results.append(converted) }
          case .prepare(let sql, let name): preparedNow.append((sql, name))
          }
        } catch {
          if firstError == nil { firstError = error }
        }
        PQclear(raw)
      }
      if PQstatus(connection) != CONNECTION_OK { break }
    }
    for (sql, name) in preparedNow { prepared.names[sql] = name }
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

/// One command sent in a pipeline.
enum PipelineCommand {
  /// A statement whose result the caller gets.
  case statement
  /// The PREPARE of a statement before its first execution on this connection.
  case prepare(sql: String, name: String)
}

/// The statements prepared on one connection: SQL text to name, and the next name's number.
struct PreparedStatements: Sendable {
  var names: [String: String] = [:]
  var next = 1
}
