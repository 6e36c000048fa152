import SNMWire

/// A write's JSON body: parsed once to learn its shape and keys; the text itself goes to
/// Postgres as one bound parameter, which decodes it against the table's row type.
struct RequestBody: Sendable {
  var text: String
  var value: JSONValue

  /// Parses `bytes` as JSON; an empty body is `empty` (or 400 PGRST102 when nil).
  ///
  /// `text/csv` is read as rows (CSVBody.swift), as PostgREST does.
  ///
  /// Throws 415 for a `Content-Type` other than JSON or CSV, 400 PGRST102 "Empty or invalid json".
  static func parse(
    _ bytes: [UInt8], contentType: String?, empty: JSONValue? = nil
  ) throws(RESTError) -> RequestBody {
    if let contentType {
      let type =
        contentType.split(separator: ";").first?.trimmingCharacters(in: " \t")
        .lowercased() ?? ""
      if type == "text/csv" {
        let rows = try CSVBody.rows(bytes)
        return RequestBody(text: rows.serialized(), value: rows)
      }
      guard type.isEmpty || type == "application/json" || type.hasSuffix("+json") else {
        throw RESTError(
          status: 415, code: "PGRST107", message: "Content-Type not acceptable: \(type)")
      }
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
