import SNMGateway

/// PostgREST's own errors (PGRST1xx request errors, PGRST2xx schema cache errors), with the
/// messages, details and hints PostgREST v13 writes.
extension RESTError {
  /// 400 PGRST100: a query parameter that does not parse.
  ///
  /// `source` is what PostgREST names the input, e.g. `failed to parse filter (noop.0)`;
  /// `column` is 1-based. The message reads `"failed to parse filter (noop.0)" (line 1, column 6)`.
  static func queryParse(source: String, column: Int, details: String) -> RESTError {
    RESTError(
      status: 400, code: "PGRST100",
      message: "\(haskellShow(source)) (line 1, column \(column))", details: .string(details))
  }

  /// 400 PGRST100: a `select` that parses but would cost Postgres more than one request may
  /// (`SelectLimits`).
  static func selectTooCostly(_ details: String) -> RESTError {
    RESTError(
      status: 400, code: "PGRST100", message: "the select parameter asks for too much",
      details: .string(details),
      hint: .string("Select fewer embedded resources, or split the request"))
  }

  /// 57014 for statements the gateway cancelled: 504 when the request's deadline passed (the
  /// backstop behind the role's `statement_timeout`), 499 when its client left (nobody reads it).
  static func cancelled(_ reason: PGInterrupt.Reason, message: String) -> RESTError {
    switch reason {
    case .deadline:
      return RESTError(
        status: 504, code: "57014", message: message,
        details: .string("the gateway's time limit for one request passed"))
    case .peerGone:
      return RESTError(status: 499, code: "57014", message: message)
    }
  }

  /// 405 PGRST101: a verb a function cannot be called with.
  static func invalidRPCMethod(_ method: String) -> RESTError {
    RESTError(status: 405, code: "PGRST101", message: "Cannot use the \(method) method on RPC")
  }

  /// 400 PGRST102: a body that is not what the request needs.
  static func invalidBody(_ message: String) -> RESTError {
    RESTError(status: 400, code: "PGRST102", message: message)
  }

  /// 416 PGRST103 with one of PostgREST's range details.
  static func invalidRange(_ details: String) -> RESTError {
    RESTError(
      status: 416, code: "PGRST103", message: "Requested range not satisfiable",
      details: .string(details))
  }

  /// 416 PGRST103: an offset past the last row.
  static func rangeOutOfBounds(offset: Int, total: Int) -> RESTError {
    invalidRange("An offset of \(offset) was requested, but there are only \(total) rows.")
  }

  /// 405 PGRST105: PUT filters that are not exactly the primary key with `eq`.
  static let invalidPutFilters = RESTError(
    status: 405, code: "PGRST105",
    message: "Filters must include all and only primary key columns with 'eq' operators")

  /// 406 PGRST106: a profile header naming a schema that is not exposed.
  static func unacceptableSchema(_ schema: String, exposed: [String]) -> RESTError {
    RESTError(
      status: 406, code: "PGRST106", message: "Invalid schema: \(schema)",
      hint: .string("Only the following schemas are exposed: " + exposed.joined(separator: ", ")))
  }

  /// 406 PGRST107: an `Accept` header the gateway cannot satisfy.
  static func unacceptableMediaType(_ types: [String]) -> RESTError {
    RESTError(
      status: 406, code: "PGRST107",
      message: "None of these media types are available: " + types.joined(separator: ", "))
  }

  /// 400 PGRST108: a filter or order on an embed the `select` does not name.
  static func notEmbedded(_ resource: String) -> RESTError {
    RESTError(
      status: 400, code: "PGRST108",
      message: "'\(resource)' is not an embedded resource in this request",
      hint: .string("Verify that '\(resource)' is included in the 'select' query parameter."))
  }

  /// 400 PGRST114: `limit`/`offset` on PUT.
  static let putLimitNotAllowed = RESTError(
    status: 400, code: "PGRST114",
    message: "limit/offset querystring parameters are not allowed for PUT")

  /// 400 PGRST115: a PUT body whose key differs from the URL filter.
  static let putMatchingPrimaryKey = RESTError(
    status: 400, code: "PGRST115",
    message: "Payload values do not match URL in primary key column(s)")

  /// 406 PGRST116: a singular answer (`application/vnd.pgrst.object+json`) with 0 or >1 rows.
  static func singularity(rows: Int) -> RESTError {
    RESTError(
      status: 406, code: "PGRST116", message: "Cannot coerce the result to a single JSON object",
      details: .string("The result contains \(rows) rows"))
  }

  /// 405 PGRST117: an HTTP method the gateway does not serve.
  static func unsupportedMethod(_ method: String) -> RESTError {
    RESTError(status: 405, code: "PGRST117", message: "Unsupported HTTP method: \(method)")
  }

  /// 400 PGRST118: `order=rel(col)` on a to-many embed.
  static func relatedOrderNotToOne(origin: String, target: String) -> RESTError {
    RESTError(
      status: 400, code: "PGRST118", message: "A related order on '\(target)' is not possible",
      details: .string(
        "'\(origin)' and '\(target)' do not form a many-to-one or one-to-one relationship"))
  }

  /// 400 PGRST122: unknown preferences with `handling=strict`.
  static func invalidPreferences(_ preferences: [String]) -> RESTError {
    RESTError(
      status: 400, code: "PGRST122", message: "Invalid preferences given with handling=strict",
      details: .string("Invalid preferences: " + preferences.joined(separator: ", ")))
  }

  /// 400 PGRST123: aggregates in `select` (disabled, as on Supabase).
  static let aggregatesNotAllowed = RESTError(
    status: 400, code: "PGRST123", message: "Use of aggregate functions is not allowed")

  /// 400 PGRST128: `max-affected` under `handling=strict` on a function that returns one value.
  static let maxAffectedSingleRoutine = RESTError(
    status: 400, code: "PGRST128",
    message:
      "Function must return SETOF or TABLE when max-affected preference is used with handling=strict"
  )

  /// 400 PGRST124: more rows affected than `max-affected` allows.
  static func maxAffectedViolation(rows: Int) -> RESTError {
    RESTError(
      status: 400, code: "PGRST124",
      message: "Query result exceeds max-affected preference constraint",
      details: .string("The query affects \(rows) rows"))
  }

  /// 404 PGRST125: a path that names no table, function or the root.
  static let invalidResourcePath = RESTError(
    status: 404, code: "PGRST125", message: "Invalid path specified in request URL")

  /// 400 PGRST127: a feature PostgREST has that this gateway does not.
  static func notImplemented(_ details: String) -> RESTError {
    RESTError(
      status: 400, code: "PGRST127", message: "Feature not implemented", details: .string(details))
  }

  /// 503 PGRST000 / 504 PGRST003: the database cannot be reached.
  static func connection(_ details: String?) -> RESTError {
    RESTError(
      status: 503, code: "PGRST000", message: "Database connection error. Retrying the connection.",
      details: .optional(details))
  }

  /// 503 PGRST002: the schema cache could not be loaded.
  static let noSchemaCache = RESTError(
    status: 503, code: "PGRST002",
    message: "Could not query the database for the schema cache. Retrying.")

  /// Haskell's `show` of a string, as Parsec prints the source name: quotes, backslash escapes,
  /// and non-ASCII characters as decimal escapes (`\12593`).
  static func haskellShow(_ text: String) -> String {
    var out = "\""
    var previousWasNumericEscape = false
    for scalar in text.unicodeScalars {
      let value = scalar.value
      if previousWasNumericEscape, scalar.properties.numericType == .decimal, value < 0x80 {
        out.append("\\&")
      }
      previousWasNumericEscape = false
      switch scalar {
      case "\"": out.append("\\\"")
      case "\\": out.append("\\\\")
      case "\n": out.append("\\n")
      case "\t": out.append("\\t")
      case "\r": out.append("\\r")
      case _ where value < 0x20 || value >= 0x7F:
        out.append("\\\(value)")
        previousWasNumericEscape = true
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out + "\""
  }
}
