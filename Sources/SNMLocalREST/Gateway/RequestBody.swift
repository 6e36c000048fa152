import SNMWire

/// A write's JSON body: parsed once to learn its shape and keys; the text itself goes to
/// Postgres as one bound parameter, which decodes it against the table's row type.
struct RequestBody: Sendable {
  var text: String
  var value: JSONValue

  /// Parses `bytes` as the `Content-Type` says: JSON (also when none is given), `text/csv` as
  /// rows (CSVBody.swift) and `application/x-www-form-urlencoded` as one object of strings, as
  /// PostgREST does (Payload.hs); an empty body is `empty` (or 400 PGRST102 when nil).
  ///
  /// Throws 400 PGRST102 "Content-Type not acceptable: ..." for other types (PostgREST's answer:
  /// 400, not 415), "Empty or invalid json". Depth is not limited here, as PostgREST does not
  /// limit it: what Postgres stores (about 14,000 levels of jsonb with its default stack) is
  /// taken, and a body past its stack is Postgres's 54001, a 500, as PostgREST answers it.
  static func parse(
    _ bytes: [UInt8], contentType: String?, empty: JSONValue? = nil
  ) throws(RESTError) -> RequestBody {
    switch mediaType(contentType) {
    case .json: break
    case .csv:
      let rows = try CSVBody.rows(bytes)
      return RequestBody(text: rows.serialized(), value: rows)
    case .urlEncoded:
      var object = JSONObject()
      for (name, value) in formFields(bytes) {
        object.removeAll(named: name)
        object.append(name, .string(value))
      }
      let value = JSONValue.object(object)
      return RequestBody(text: value.serialized(), value: value)
    case let other:
      throw RESTError.invalidBody("Content-Type not acceptable: \(other.mime)")
    }
    if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }),
      let empty
    {
      return RequestBody(text: empty.serialized(), value: empty)
    }
    guard let value = try? JSONValue(parsing: bytes) else {
      throw RESTError.invalidBody("Empty or invalid json")
    }
    return RequestBody(text: String(decoding: bytes, as: UTF8.self), value: value)
  }

  /// The media type of a request's `Content-Type` (JSON when there is none).
  static func mediaType(_ contentType: String?) -> MediaType {
    guard let contentType, !contentType.trimmingCharacters(in: " \t").isEmpty else {
      return .json
    }
    return MediaType(contentType)
  }

  /// The `name=value` pairs of a form body, decoded (`+` is a space), in order.
  static func formFields(_ bytes: [UInt8]) -> [(name: String, value: String)] {
    String(decoding: bytes, as: UTF8.self).split(separator: "&").map { pair in
      let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      let value = parts.count > 1 ? parts[1] : ""
      return (
        PercentEncoding.decode(parts[0], plusIsSpace: true),
        PercentEncoding.decode(value, plusIsSpace: true)
      )
    }
  }

  var isObject: Bool { value.objectValue != nil }

  /// The keys of an object body, or of an array's first object; nil for other shapes.
  ///
  /// Throws 400 PGRST102 "All object keys must match" when an array's objects differ.
  func uniformKeys() throws(RESTError) -> [String]? {
    if let members = value.objectValue { return members.map(\.key) }
    guard let items = value.arrayValue else { return nil }
    var keys: [String]? = nil
    var keySet: Set<String> = []
    for item in items {
      guard let members = item.objectValue else {
        throw RESTError.invalidBody("All object keys must match")
      }
      let names = members.map(\.key)
      if let keys {
        guard Set(names) == keySet, names.count == keys.count else {
          throw RESTError.invalidBody("All object keys must match")
        }
      } else {
        keys = names
        keySet = Set(names)
      }
    }
    return keys ?? []
  }
}
