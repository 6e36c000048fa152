import SNMGateway

/// Reads whose JSON the gateway writes from the rows' columns instead of asking Postgres for a
/// `json_agg` body: Postgres then only reads the rows and sends each column's text, as it does
/// for psql, which costs it a third less for one row and over half less for a thousand
/// (callgrind, instructions in the backend per request). The body is byte for byte what
/// `json_agg` gives (`RowJSONEncoder`, `json_agg`'s `, \n ` between the rows).
///
/// One round trip, one implicit transaction: the request's prelude, the page's SELECT as it is
/// (its columns as cells, `PGResultForm.cells`), then `response.headers`, `response.status` and
/// `DateStyle` as the read left them (what PostgREST reads after its aggregate). A statement of
/// its own costs Postgres less than a last row joined to the page's (callgrind).
///
/// A statement whose rows hold a type the encoder cannot write (a composite, a type a function
/// casts to json), or dates under a `DateStyle` that is not ISO, is answered the usual way: the
/// read is asked again as PostgREST asks it (read-only, so nothing was written), and the
/// statement is remembered (`ColumnReadCache`) so that this happens once.
extension RESTGateway {
  /// Whether `read` may answer from the columns: a GET of a JSON array or single object
  /// (nulls kept), no count asked, not an execution plan.
  func readsColumns(_ context: Context) -> Bool {
    guard context.method == "GET", !context.media.isPlan, context.preferences.count == nil else {
      return false
    }
    switch context.shape {
    case .array(stripNulls: false), .object(stripNulls: false): return true
    default: return false
    }
  }

  /// `response.headers`, `response.status` and `DateStyle` after the page's SELECT.
  static let columnsSettingsStatement =
    "SELECT pg_catalog.current_setting('response.headers', true), "
    + "pg_catalog.current_setting('response.status', true), "
    + "pg_catalog.current_setting('DateStyle')"

  /// The answer to `asked` (the page, or a batch and one row more when it may be streamed)
  /// written from its rows' columns; nil when Postgres must write them. A request whose shape is
  /// new (`Context.requestShape`) is kept by it once answered this way (`ShapedReads.learn`).
  func columnsRead(
    _ asked: ReadPlan, plan: ReadPlan, streams: Bool, _ context: Context
  ) throws -> HTTPResponse? {
    var sql = SQLWriter()
    try sql.select(asked, cache: context.cache)
    var rows = sql.statement
    rows.form = .cells
    let known = columnReads.entry(rows.sql)
    if case .postgres = known { return nil }
    let offset = plan.range?.offset ?? 0
    let plainRead = try KnownCodeReads.plainRead(asked, cache: context.cache)
    guard
      let answer = try columnsAnswer(
        rows, known: known, offset: offset, context, streams: streams,
        streamed: { try self.streamedRead(plan, context) }, plainRead: plainRead)
    else { return nil }
    if let shape = context.requestShape, let written = answer.written {
      ShapedReads(gateway: self).learn(
        shape.shape, version: shape.version, rows: rows, context: context, offset: offset,
        streams: streams, written: written, plainRead: plainRead)
    }
    return answer.response
  }

  /// Runs `rows` (a `.cells` statement) with the settings after it and writes the answer; nil
  /// when Postgres must write the rows. When the read `streams`, `streamed` answers when there
  /// are more than a batch of rows; the encoders are returned when they wrote it.
  /// `plainRead`: see `run` (the settings read's answer may be known).
  func columnsAnswer(
    _ rows: PGStatement, known: ColumnReadCache.Entry?, offset: Int, _ context: Context,
    streams: Bool, streamed: () throws -> HTTPResponse, plainRead: KnownCodeReads.PlainRead?
  ) throws -> (response: HTTPResponse, written: RequestShapeCache.Encoders?)? {
    var settings = PGStatement(Self.columnsSettingsStatement, prepared: true)
    settings.form = .cells
    let results = try run(
      [rows, settings], context, readOnly: true, plainRead: plainRead)
    guard results.count == 2, let cells = results[0].cells else { return nil }
    if streams, cells.rowCount > Self.streamedBatch { return (try streamed(), nil) }
    guard let after = KnownCodeReads.settingsRead(results[1]) else { return nil }
    var row = ResultRow(PGResult())
    row.pageTotal = cells.rowCount
    row.responseHeaders = ResultRow.setting(after.headers)
    row.responseStatus = ResultRow.setting(after.status)
    let isoDates = RowJSONEncoder.datesAreISO(after.dateStyle)
    guard let encoders = try encoder(for: rows.sql, cells: cells, known: known, context),
      let encoder = isoDates ? encoders.iso : encoders.otherDates
    else { return nil }
    if context.media.isSingular && cells.rowCount != 1 {
      throw RESTError.singularity(rows: cells.rowCount)
    }
    row.bodyUTF8 = Self.body(cells, encoder: encoder, array: !context.media.isSingular)
    let response = try rowsResponse(row, total: nil, offset: offset, context)
    return (
      response,
      RequestShapeCache.Encoders(
        types: cells.types, iso: encoders.iso, otherDates: encoders.otherDates)
    )
  }

  /// The encoders for `cells`' types: the cached ones when the types are the same, else made
  /// (asking the catalog about user types) and cached. Nil when Postgres must write the rows.
  func encoder(
    for sql: String, cells: PGCells, known: ColumnReadCache.Entry?, _ context: Context
  ) throws -> (iso: RowJSONEncoder, otherDates: RowJSONEncoder?)? {
    if case .encoders(let types, let iso, let otherDates) = known, types == cells.types {
      return (iso, otherDates)
    }
    let columns = cells.columns
    let hasUserTypes = cells.types.contains { $0 >= RowJSONEncoder.firstUserType }
    func made(isoDates: Bool) throws -> RowJSONEncoder? {
      var userTypes: [UInt32: RowJSONEncoder.Kind] = [:]
      if hasUserTypes {
        guard
          let kinds = try context.database.withConnection({ connection in
            try RowJSONEncoder.userTypeKinds(
              cells.types, isoDates: isoDates, connection: connection, interrupt: nil)
          })
        else { return nil }
        userTypes = kinds
      }
      return RowJSONEncoder(
        columns: columns, types: cells.types, isoDates: isoDates, userTypes: userTypes)
    }
    guard !columns.isEmpty, let iso = try made(isoDates: true) else {
      columnReads.record(sql, .postgres)
      return nil
    }
    let otherDates = try made(isoDates: false)
    columnReads.record(sql, .encoders(types: cells.types, iso: iso, otherDates: otherDates))
    return (iso, otherDates)
  }

  /// The body `json_agg` would have given: `[row, \n row]` (`[]` for none), or the one row's
  /// object. The sink starts with room for the keys and a guess at the values, and grows.
  static func body(_ cells: PGCells, encoder: RowJSONEncoder, array: Bool) -> [UInt8] {
    var sink = ByteSink(capacity: cells.rowCount * (2 * encoder.bytesPerRow + 4) + 2)
    sink.reserve(1)
    if array { sink.append(UInt8(ascii: "[")) }
    var first = true
    cells.forEachRow { row in
      if !first {
        sink.reserve(4)
        sink.append(rowSeparator)
      }
      first = false
      encoder.append(row, from: 0, to: &sink)
    }
    sink.reserve(1)
    if array { sink.append(UInt8(ascii: "]")) }
    return sink.array()
  }

  /// What `json_agg` writes between two rows.
  static let rowSeparator: StaticString = ", \n "
}
