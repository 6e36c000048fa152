/// What turns the rows of a request into a body of the negotiated media type (PostgREST's
/// `MediaHandler`): its built-in JSON and CSV aggregates, or a handler from the database.
enum MediaHandler: Sendable, Hashable {
  /// A JSON array (`application/json`), optionally without null-valued keys.
  case jsonArray(stripNulls: Bool)
  /// One JSON object (`application/vnd.pgrst.object+json`).
  case jsonObject(stripNulls: Bool)
  case csv
  /// `application/geo+json`: a FeatureCollection of the rows through PostGIS's `ST_AsGeoJSON`.
  case geoJSON
  /// An aggregate or a media-type domain of the database.
  case custom(CustomMediaHandler)
  /// No body (HEAD, a write without `return=representation`).
  case none

  /// The body shape of this handler.
  var shape: ResultShape {
    switch self {
    case .jsonArray(let strip): .array(stripNulls: strip)
    case .jsonObject(let strip): .object(stripNulls: strip)
    case .csv: .csv
    case .geoJSON: .geoJSON
    case .custom(let handler): .custom(handler)
    case .none: .none
    }
  }
}

/// A handler the database defines (SchemaCache.hs `mediaHandlers`): an aggregate over a
/// relation's rows (or `anyelement`'s, for every relation) returning a domain named after a media
/// type, or, for a function returning such a domain, its value cast to it.
struct CustomMediaHandler: Sendable, Hashable {
  /// The aggregate, or the domain type for a cast.
  var function: QualifiedName
  /// The relation whose row type the aggregate takes; nil for `anyelement`.
  var target: QualifiedName?
  var isCast: Bool
  /// How the value becomes the body's bytes.
  var read: BodyRead

  /// PostgREST reads a handler's value in binary: for `bytea` the bytes, for the text types
  /// their text, for any other base type its binary send form (`jsonb` is a version byte, 1,
  /// then the text; `integer` four bytes).
  enum BodyRead: Sendable, Hashable {
    case text
    case bytes
    /// The base type's send function (`jsonb_send`), its output hex-encoded.
    case send(String)
  }

  /// Whether the value travels hex-encoded (the body is bytes, not text).
  var isBinary: Bool { read != .text }

  /// The read for a domain over `base` (`format_type`) whose send function is `send`.
  static func read(base: String?, send: String?) -> BodyRead {
    switch base {
    case "bytea": return .bytes
    case nil, "text", "character varying", "json", "xml", "name": return .text
    default: return send.map { .send($0) } ?? .text
    }
  }
}

/// Where a handler applies: a relation or function (nil for any relation) and a media type.
struct MediaHandlerKey: Sendable, Hashable {
  var target: QualifiedName?
  var media: MediaType
}

/// A handler and the media type its answers carry (`*/*` handlers answer
/// `application/octet-stream`).
struct ResolvedHandler: Sendable, Hashable {
  var handler: MediaHandler
  var media: MediaType
}
