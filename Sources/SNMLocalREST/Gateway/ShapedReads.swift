import SNMGateway

/// Reads of a known shape (`RequestShape`, `RequestShapeCache`): a GET answered from its columns
/// is kept by its shape, its statement with the slots' values as parameters; the next request of
/// that shape skips parsing, planning, writing the SQL and finding the encoders, and goes
/// straight to the database with its own values. The answer is the same byte for byte.
///
/// A shape is kept only when its statement is seen to depend on its slots' values as bound
/// parameters and on nothing else of them: the request is planned again with every slot's value
/// replaced by a probe (`RequestShape.probe`), and the two statements must be the same text with
/// the same parameters but for the slots'. A shape that fails this is kept as answered the usual
/// way, and so is one whose rows Postgres must write.
struct ShapedReads {
  let gateway: RESTGateway

  /// The answer from `read`, or nil when this request must go the usual way (a slot's value the
  /// query string's parser would refuse, rows the gateway cannot write this time).
  func answer(
    _ read: RequestShapeCache.Read, shape: RequestShape, _ request: HTTPRequest,
    auth: RequestAuth, database: PGPool, cache: SchemaCache
  ) throws -> HTTPResponse? {
    var parameters: [String?] = []
    parameters.reserveCapacity(read.parameters.count)
    for parameter in read.parameters {
      switch parameter {
      case .constant(let value): parameters.append(value)
      case .slot(let index):
        guard let value = shape.decoded(index) else { return nil }
        parameters.append(value)
      }
    }
    // The template's schema cache is `cache` already: a read is kept under the version of the
    // cache it was planned with and found only under that version (`lookup`), and a version
    // names one cache. Not assigned again: a copy of the cache's every table.
    var context = read.context
    context.request = request
    context.auth = auth
    context.database = database
    context.location = read.location?.location(shape)
    var rows = PGStatement(read.sql, parameters)
    rows.form = .cells
    let known = ColumnReadCache.Entry.encoders(
      types: read.types, iso: read.iso, otherDates: read.otherDates)
    // Not escaping: it captures the request, the caller and the cache in place, not copied into
    // a closure's box for every read (it runs only for more than a batch of rows).
    func streamed() throws -> HTTPResponse {
      guard
        case .relation(let table, let context) = try gateway.prepare(
          request, auth: auth, database: database, cache: cache)
      else { throw RESTError.invalidResourcePath }
      return try gateway.streamedRead(try gateway.readPlan(table, context).plan, context)
    }
    guard
      case let (response, written)? = try gateway.columnsAnswer(
        rows, known: known, offset: read.offset, context, streams: read.streams,
        streamed: streamed, plainRead: read.plainRead)
    else {
      // Postgres writes these rows now (a DateStyle that is not ISO): the usual way from now.
      gateway.shapes.record(shape.key, version: read.version, read: nil)
      return nil
    }
    if let written, written.types != read.types {
      gateway.shapes.record(shape.key, version: read.version, read: read.relearnt(written))
    }
    return response
  }

  /// Keeps the read just answered from its columns by its shape, once the probe shows how its
  /// parameters come from the slots (see the type's comment).
  func learn(
    _ shape: RequestShape, version: Int, rows: PGStatement, context: RESTGateway.Context,
    offset: Int, streams: Bool, written: RequestShapeCache.Encoders,
    plainRead: KnownCodeReads.PlainRead?
  ) {
    guard rows.sql.utf8.count <= RequestShape.longestKey * 4 else { return }
    var parameters = rows.parameters.map { RequestShapeCache.Read.Parameter.constant($0) }
    // The location as answered (a table's), its slots cut out below.
    var location = context.location.map { CanonicalQuery.Template(probeLocation: $0, slotCount: 0) }
    if !shape.slots.isEmpty {
      let probe = shape.probeRequest(context.request)
      var probed: PGStatement?
      if case .relation(let table, let probeContext) = try? gateway.prepare(
        probe, auth: context.auth, database: context.database, cache: context.cache),
        gateway.readsColumns(probeContext),
        let asked = try? gateway.readPlan(table, probeContext).asked
      {
        var sql = SQLWriter()
        if (try? sql.select(asked, cache: context.cache)) != nil { probed = sql.statement }
        location = probeContext.location.map {
          CanonicalQuery.Template(probeLocation: $0, slotCount: shape.slots.count)
        }
      }
      let values = shape.slots.indices.map(shape.decoded)
      guard let probed,
        let slotted = Self.slottedParameters(real: rows, probe: probed, values: values)
      else {
        gateway.shapes.record(shape.key, version: version, read: nil)
        return
      }
      parameters = slotted
    }
    // A location the probe does not show slot by slot (a query holding a probe's own text).
    if case .some(.none) = location {
      gateway.shapes.record(shape.key, version: version, read: nil)
      return
    }
    var template = context
    template.request = HTTPRequest(method: context.request.method, target: "")
    template.query = QueryParameters()
    template.auth = RequestAuth(
      role: context.auth.role, claims: .null, claimsJSON: "",
      isAnonymous: context.auth.isAnonymous)
    template.requestShape = nil
    gateway.shapes.record(
      shape.key, version: version,
      read: RequestShapeCache.Read(
        version: version, sql: rows.sql, parameters: parameters, context: template,
        offset: offset,
        streams: streams, types: written.types, iso: written.iso,
        otherDates: written.otherDates, location: location ?? nil,
        plainRead: plainRead))
  }

  /// The parameters of a shape's statement: those of `real` (planned with the request's values)
  /// where `probe` (planned with `RequestShape.probe`'s values) has the same, slot `n` where it
  /// has probe `n`'s value and `real` has the request's slot `n` value. Nil when the statements
  /// differ in any other way: the shape's statement depends on more than its slots.
  static func slottedParameters(
    real: PGStatement, probe: PGStatement, values: [String?]
  ) -> [RequestShapeCache.Read.Parameter]? {
    guard real.sql == probe.sql, real.parameters.count == probe.parameters.count else {
      return nil
    }
    let probes = values.indices.map { RequestShape.probe($0).decoded }
    var parameters: [RequestShapeCache.Read.Parameter] = []
    for (value, probed) in zip(real.parameters, probe.parameters) {
      if let probed, let slot = probes.firstIndex(of: probed) {
        guard let value, values[slot] == value else { return nil }
        parameters.append(.slot(slot))
      } else {
        guard value == probed else { return nil }
        parameters.append(.constant(value))
      }
    }
    return parameters
  }
}
