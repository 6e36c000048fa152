@preconcurrency import CLibPQ
import Synchronization

extension PGConnection {
  /// Sends all statements, one sync, then reads every result (libpq pipeline mode).
  ///
  /// Throws the first failing statement's `PGError`; the connection leaves pipeline mode either way.
  static func runPipeline(
    _ statements: [PGStatement], connection: OpaquePointer,
    prepared: inout PreparedStatements, interrupt: PGInterrupt? = nil
  ) throws(PGError) -> [PGResult] {
    guard PQenterPipelineMode(connection) == 1 else {
      throw PGError(kind: .client, message: trimmed(PQerrorMessage(connection)))
    }
    defer { _ = PQexitPipelineMode(connection) }
    var sendError: PGError?
    // What each sent command was: a statement's execution, the PREPARE of a new name, or the
    // DEALLOCATE of the least recently used one to make room (sent first, so an earlier
    // failure in the pipeline cannot skip it).
    var sentCommands: [PipelineCommand] = []
    sentCommands.reserveCapacity(statements.count + 1)
    // Room for every statement already (the usual case): no list of their texts to make.
    let roomy = prepared.count + statements.count <= PGConnection.preparedLimit
    let evicted = roomy ? [] : prepared.makeRoom(for: statements.filter(\.prepared).map(\.sql))
    for name in evicted {
      guard snm_pq_send_text_params(connection, "DEALLOCATE " + name, 0, nil) == 1 else {
        sendError = PGError(kind: .connection, message: trimmed(PQerrorMessage(connection)))
        break
      }
      sentCommands.append(.deallocate)
    }
    // Names prepared by this pipeline, recorded once their PREPARE succeeded.
    var pending: [String: String] = [:]
    for statement in statements where sendError == nil {
      do throws(PGError) {
        var name: String? = nil
        if statement.prepared {
          if let existing = prepared.use(statement.sql) ?? pending[statement.sql] {
            name = existing
          } else if prepared.count + pending.count < PGConnection.preparedLimit {
            // Names are never reused, so a PREPARE whose outcome was lost cannot collide.
            let fresh = prepared.newName()
            guard
              snm_pq_send_prepare(
                connection, fresh, statement.sql, Int32(statement.parameters.count)) == 1
            else {
              sendError = PGError(kind: .connection, message: trimmed(PQerrorMessage(connection)))
              break
            }
            sentCommands.append(.prepare(sql: statement.sql, name: fresh))
            pending[statement.sql] = fresh
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
        sentCommands.append(.statement(statement.form))
      } catch {
        sendError = error
        break
      }
    }
    guard PQpipelineSync(connection) == 1 else {
      throw PGError(
        kind: .connection, sqlState: "08006", message: trimmed(PQerrorMessage(connection)))
    }
    var waiter = PGResultWaiter(connection: connection, interrupt: interrupt)
    waiter.begin()
    defer { waiter.end() }
    var results: [PGResult] = []
    results.reserveCapacity(statements.count)
    var firstError: PGError?
    for command in sentCommands {
      // Each command yields its result(s) and then NULL.
      while true {
        waiter.awaitResult()
        guard let raw = PQgetResult(connection) else { break }
        // A result kept as cells is freed by its `PGCells`, the others here.
        var kept = false
        do {
          var form = PGResultForm.text
          if case .statement(let wanted) = command { form = wanted }
          let converted = try convert(raw, connection: connection, form: form)
          kept = converted.cells != nil
          switch command {
          case .statement: if firstError == nil { results.append(converted) }
          case .prepare(let sql, let name): prepared.add(sql, name: name)
          case .deallocate: break
          }
        } catch {
          if firstError == nil { firstError = error }
        }
        if !kept { PQclear(raw) }
      }
      if PQstatus(connection) != CONNECTION_OK { break }
    }
    // Drain up to and including the sync marker.
    while PQstatus(connection) == CONNECTION_OK {
      waiter.awaitResult()
      guard let raw = PQgetResult(connection) else { break }
      let status = PQresultStatus(raw)
      PQclear(raw)
      if status == PGRES_PIPELINE_SYNC { break }
    }
    if let reason = waiter.cancelled, firstError != nil || PQstatus(connection) != CONNECTION_OK {
      throw PGError.interrupted(reason)
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
  /// A statement whose result the caller gets, in this form.
  case statement(PGResultForm)
  /// The PREPARE of a statement before its first execution on this connection.
  case prepare(sql: String, name: String)
  /// The DEALLOCATE of a prepared statement evicted to make room.
  case deallocate
}
