import SNMGateway
import Synchronization

/// Reads whose answer may be large go out as Postgres produces them. The read is first asked the
/// usual way for one row more than a batch (`read`): an answer that fits is sent whole, with
/// `Content-Length`, as PostgREST sends it, at no cost beyond today's. A larger one is read again
/// in one `REPEATABLE READ` snapshot: a count of the page (and the total when asked), then a
/// cursor, in one round trip; the head goes out with the first batch and the body follows in
/// chunks. The bytes of the body are the same either way.
///
/// An error in a row of the first batch is PostgREST's error response; one in a later row (after
/// the head went) ends the connection without the body's last chunk, so a client sees a cut
/// answer, never a short one.
extension RESTGateway {
  /// Rows a batch holds; a read limited to at most this many is answered whole.
  static let streamedBatch = 1000

  /// Whether the answer to `plan` is streamed: JSON arrays and CSV (not HEAD, not a single
  /// object, no planned or estimated count) of more than a batch of rows.
  func streamsAnswer(_ plan: ReadPlan, _ context: Context) -> Bool {
    guard !context.isHead, !context.media.isSingular else { return false }
    switch context.shape {
    case .array, .csv: break
    case .object, .geoJSON, .custom, .none: return false
    }
    switch context.preferences.count {
    case nil, .exact: break
    case .planned, .estimated: return false
    }
    guard let limit = plan.range?.limit else { return true }
    return limit > Self.streamedBatch
  }

  func streamedRead(_ plan: ReadPlan, _ context: Context) throws -> HTTPResponse {
    var count = SQLWriter()
    try count.streamedCountStatement(
      plan, cache: context.cache, count: context.preferences.count,
      countLimit: context.maxRows.map { $0 + 1 })
    // A JSON array's rows come as their columns, for the gateway to write as JSON (cheaper for
    // Postgres than row_to_json); the cursor's description says whether it knows every type.
    let byColumns = context.shape == .array(stripNulls: false)
    var sql = SQLWriter()
    try sql.streamedReadStatement(
      plan, cache: context.cache, shape: context.shape, columns: byColumns)
    let query = sql.statement
    try Self.refuseNUL([count.statement, query])
    let interrupt = PGInterrupt(
      deadline: monotonicSeconds() + settings.requestDeadline,
      watchedSocket: context.request.peer?.socket)
    let connection = try context.database.checkOut()
    let rows = StreamedRows(
      connection: connection, pool: context.database, interrupt: interrupt, shape: context.shape)
    var body: [UInt8] = []
    let counted: ResultRow
    let responseSettings: ResultRow
    let first: Int
    do {
      let prelude = RESTRequestRole.prelude(context, readOnly: true)
      let results = try connection.pipeline(
        [PGStatement("begin isolation level repeatable read read only")] + prelude + [
          count.statement, Self.declareRows(query),
        ] + (byColumns ? [PGStatement("FETCH FORWARD 0 FROM \"pgrst_rows\"")] : []),
        interrupt: interrupt)
      if byColumns, let described = results.last {
        let types = described.columnTypes.dropFirst()
        let isoDates = RowJSONEncoder.datesAreISO(connection.parameterStatus("DateStyle"))
        if let userTypes = try RowJSONEncoder.userTypeKinds(
          types, isoDates: isoDates, connection: connection, interrupt: interrupt),
          let encoder = RowJSONEncoder(
            columns: described.columns.dropFirst(), types: types, isoDates: isoDates,
            userTypes: userTypes)
        {
          rows.encoder = encoder
        } else {
          var lines = SQLWriter()
          try lines.streamedReadStatement(plan, cache: context.cache, shape: context.shape)
          _ = try connection.pipeline(
            [PGStatement("CLOSE \"pgrst_rows\""), Self.declareRows(lines.statement)],
            interrupt: interrupt)
        }
      }
      counted = ResultRow(results[1 + prelude.count])
      first = try rows.fetch(into: &body)
      responseSettings = ResultRow(
        try connection.pipeline(
          [PGStatement(SQLWriter.streamedSettingsStatement)], interrupt: interrupt)[0])
    } catch {
      rows.close(commit: false)
      throw error
    }
    let offset = plan.range?.offset ?? 0
    let total = counted.total
    var response = pageHead(
      pageTotal: counted.pageTotal, total: total, offset: offset, context)
    guard response.status < 400 else {
      rows.close(commit: false)
      return response
    }
    do {
      response = try Self.applyingResponseSettings(response, row: responseSettings)
    } catch {
      rows.close(commit: false)
      throw error
    }
    guard first == Self.streamedBatch else {
      rows.finish(into: &body)
      rows.close(commit: true)
      response.body = body
      return response
    }
    response.body = body
    response.bodyStream = HTTPStreamedBody(
      produce: { write in rows.produce(write) },
      abandon: { rows.close(commit: false) })
    return response
  }

  /// The cursor `pgrst_rows` of a streamed read over `query`.
  static func declareRows(_ query: PGStatement) -> PGStatement {
    PGStatement("DECLARE \"pgrst_rows\" NO SCROLL CURSOR FOR " + query.sql, query.parameters)
  }
}

/// The cursor of a streamed read and the body text it becomes, batch by batch; it gives its
/// connection back to the pool exactly once (`close`).
final class StreamedRows: Sendable {
  let connection: PGConnection
  let pool: PGPool
  let interrupt: PGInterrupt
  let shape: ResultShape
  let state = Mutex(State())

  struct State {
    /// Rows written to the body so far.
    var written = 0
    var closed = false
    /// Writes each row's JSON from its columns (after the marker), when the cursor gives them.
    var encoder: RowJSONEncoder?
  }

  var encoder: RowJSONEncoder? {
    get { state.withLock { $0.encoder } }
    set { state.withLock { $0.encoder = newValue } }
  }

  /// Bytes gathered before a chunk goes out.
  static let chunkBytes = 1 << 16

  init(connection: PGConnection, pool: PGPool, interrupt: PGInterrupt, shape: ResultShape) {
    self.connection = connection
    self.pool = pool
    self.interrupt = interrupt
    self.shape = shape
  }

  /// Fetches the next batch and appends its rows to `body` as the body text has them (the
  /// opening `[` or CSV header line before the first); returns how many rows it had. Throws
  /// `PGError`.
  func fetch(into body: inout [UInt8]) throws(PGError) -> Int {
    var written = state.withLock { $0.written }
    let encoder = self.encoder
    let separator: StaticString
    switch shape {
    case .array(let strip): separator = strip ? ", " : ", \n "
    default: separator = "\n"
    }
    var sink = ByteSink(capacity: Self.chunkBytes)
    let rows = try connection.forEachRow(
      "FETCH FORWARD \(RESTGateway.streamedBatch) FROM \"pgrst_rows\"", interrupt: interrupt
    ) { row in
      if written == 0 {
        if case .csv = shape {
          let header = row.cell(SQLWriter.StreamColumn.header)
          sink.reserve((header?.count ?? 0) + 1)
          if let header { sink.append(header) }
          sink.append(10)
        } else {
          sink.reserve(1)
          sink.append(UInt8(ascii: "["))
        }
      }
      // An empty page is one row without a line or marker (the outer join's).
      guard let line = row.cell(SQLWriter.StreamColumn.line) else { return }
      sink.reserve(line.count + 4)
      if written > 0 { sink.append(separator) }
      if let encoder {
        encoder.append(row, from: 1, to: &sink)
      } else if case .csv = shape {
        // The record text without its parentheses, as `substring(t::text, 2, length - 2)`.
        if line.count >= 2 {
          sink.append(UnsafeRawBufferPointer(rebasing: line[1..<(line.count - 1)]))
        }
      } else {
        sink.append(line)
      }
      written += 1
    }
    sink.withBytes { body.append(contentsOf: $0) }
    state.withLock { $0.written = max(written, 1) }
    return rows
  }

  /// Appends the end of the body (`]` of a JSON array).
  func finish(into body: inout [UInt8]) {
    if case .array = shape { body.append(UInt8(ascii: "]")) }
  }

  /// The rest of the body, in chunks, after the first batch was sent with the head; false when
  /// the client left or the database failed midway (the answer is then cut short).
  func produce(_ write: (UnsafeRawBufferPointer) -> Bool) -> Bool {
    var body: [UInt8] = []
    body.reserveCapacity(Self.chunkBytes + (1 << 14))
    var whole = false
    while true {
      let rows: Int
      do {
        rows = try fetch(into: &body)
      } catch {
        break
      }
      if rows < RESTGateway.streamedBatch { finish(into: &body) }
      if body.count >= Self.chunkBytes || rows < RESTGateway.streamedBatch {
        guard body.withUnsafeBytes(write) else { break }
        body.removeAll(keepingCapacity: true)
      }
      if rows < RESTGateway.streamedBatch {
        whole = true
        break
      }
    }
    close(commit: whole)
    return whole
  }

  /// Ends the transaction (its cursor with it) and gives the connection back.
  func close(commit: Bool) {
    let first = state.withLock { state in
      defer { state.closed = true }
      return !state.closed
    }
    guard first else { return }
    _ = try? connection.execute(commit ? "commit" : "rollback")
    pool.checkIn(connection)
  }
}
