import SNMWire

/// The query string split and decoded as PostgREST reads it (http-types `parseQueryReplacePlus`).
///
/// - a leading `?` is dropped; pairs are split on `&` **and** `;`;
/// - each pair splits at its first `=`; a pair without `=` has no value;
/// - `+` is a space, `%XX` is a byte, a malformed `%` escape stays literal.
///
///     try QueryString.parse("select=id,name&age=gte.3;name=ilike.a+b%2A")
///     // [("select", "id,name"), ("age", "gte.3"), ("name", "ilike.a b*")]
///
/// Throws PGRST100 when a decoded key or value is not UTF-8 or holds a NUL byte (Postgres text
/// cannot hold one, and it would cut a C string short).
enum QueryString {
  /// One decoded `key=value` pair; `value` is nil for a bare `key`.
  struct Pair: Sendable, Equatable {
    var key: String
    var value: String?
  }

  static func parse(_ raw: String) throws(RESTError) -> [Pair] {
    var bytes = Array(raw.utf8)
    if bytes.first == UInt8(ascii: "?") { bytes.removeFirst() }
    var pairs: [Pair] = []
    var start = 0
    while start < bytes.count {
      var end = start
      while end < bytes.count, bytes[end] != UInt8(ascii: "&"), bytes[end] != UInt8(ascii: ";") {
        end += 1
      }
      let piece = bytes[start..<end]
      if let equals = piece.firstIndex(of: UInt8(ascii: "=")) {
        pairs.append(
          Pair(
            key: try decode(piece[piece.startIndex..<equals]),
            value: try decode(piece[(equals + 1)..<piece.endIndex])))
      } else {
        pairs.append(Pair(key: try decode(piece), value: nil))
      }
      start = end + 1
    }
    return pairs
  }

  /// Percent-decodes one key or value, with `+` as a space.
  static func decode(_ bytes: ArraySlice<UInt8>) throws(RESTError) -> String {
    if !bytes.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") || $0 >= 0x80 })
    {
      if bytes.contains(0) { throw nulError }
      return String(decoding: bytes, as: UTF8.self)
    }
    let out = PercentEncoding.decode(bytes: bytes, plusIsSpace: true)
    if out.contains(0) { throw nulError }
    guard let text = String(validating: out, as: UTF8.self) else {
      throw RESTError(
        status: 400, code: "PGRST100", message: "invalid query string",
        details: .string("a query parameter is not valid UTF-8 once percent-decoded"))
    }
    return text
  }

  static let nulError = RESTError(
    status: 400, code: "PGRST100", message: "invalid query string",
    details: .string("a NUL byte (%00) cannot be part of a query parameter"))
}
