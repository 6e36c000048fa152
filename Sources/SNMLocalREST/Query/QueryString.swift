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
    try forEachPair(in: bytes) { (name, value) throws(RESTError) in
      var pair = Pair(key: try decode(bytes[name]), value: nil)
      if let value { pair.value = try decode(bytes[value]) }
      pairs.append(pair)
    }
    return pairs
  }

  /// The pieces of a query string (its `?` dropped) between `&` and `;`, each cut at its first
  /// `=`: `body` takes the ranges of the name and of the value (nil for a piece without `=`), in
  /// the query's order. A `&` or `;` at the end makes no piece; two in a row make an empty one.
  @inline(__always)
  static func forEachPair<Bytes: RandomAccessCollection<UInt8>, Failure: Error>(
    in bytes: Bytes, _ body: (Range<Int>, Range<Int>?) throws(Failure) -> Void
  ) throws(Failure) where Bytes.Index == Int {
    var start = bytes.startIndex
    while start < bytes.endIndex {
      var end = start
      var equals: Int? = nil
      while end < bytes.endIndex, bytes[end] != UInt8(ascii: "&"), bytes[end] != UInt8(ascii: ";") {
        if equals == nil && bytes[end] == UInt8(ascii: "=") { equals = end }
        end += 1
      }
      if let equals {
        try body(start..<equals, (equals + 1)..<end)
      } else {
        try body(start..<end, nil)
      }
      start = end + 1
    }
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
