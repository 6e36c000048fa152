import SNMGateway
import SNMWire

/// What a REST request shares with the database besides its role and claims, as PostgREST
/// writes it: `request.headers` and `request.cookies` as JSON objects' text, and `request.path`.
///
/// ```swift
/// RequestSettings.headers(["Apikey": "k", "Cookie": "a=1"])
/// // (headers: #"{"apikey":"k"}"#, cookies: #"{"a":"1"}"#)
/// RequestSettings.path("/rest/v1/todos")   // "/todos"
/// ```
enum RequestSettings {
  /// `request.headers` (lowercase names, the last of repeated ones, without `Cookie`) and
  /// `request.cookies` as JSON objects' text; the headers are written straight into bytes, and
  /// a request without cookies (most) gets `{}` without building an object.
  static func headers(_ headers: HTTPHeaders) -> (headers: String, cookies: String) {
    var named: [(name: String, value: String)] = []
    named.reserveCapacity(headers.fields.count)
    var cookies: JSONObject?
    var length = 2
    for field in headers {
      let name = lowercasedName(field.name)
      if name == "cookie" {
        var jar = cookies ?? JSONObject()
        for pair in field.value.split(separator: ";") {
          let parts = pair.split(separator: "=", maxSplits: 1)
          guard let key = parts.first?.trimmingCharacters(in: " \t"), !key.isEmpty else {
            continue
          }
          let value = parts.count > 1 ? parts[1].trimmingCharacters(in: " \t") : ""
          jar.removeAll(named: key)
          jar.append(key, .string(value))
        }
        cookies = jar
      } else {
        // A repeated name keeps its last value, in the place of the last.
        if let earlier = named.firstIndex(where: { $0.name == name }) { named.remove(at: earlier) }
        named.append((name, field.value))
        length += name.utf8.count + field.value.utf8.count + 6
      }
    }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(length)
    bytes.append(UInt8(ascii: "{"))
    for (index, field) in named.enumerated() {
      if index > 0 { bytes.append(UInt8(ascii: ",")) }
      JSONValue.appendQuoted(field.name, to: &bytes)
      bytes.append(UInt8(ascii: ":"))
      JSONValue.appendQuoted(field.value, to: &bytes)
    }
    bytes.append(UInt8(ascii: "}"))
    let cookieText = cookies.map { JSONValue.object($0).serialized() } ?? "{}"
    return (String(decoding: bytes, as: UTF8.self), cookieText)
  }

  /// A header name in lowercase, copied only when it has an uppercase letter (or is not ASCII).
  static func lowercasedName(_ name: String) -> String {
    name.utf8.allSatisfy({ $0 < 0x41 || ($0 > 0x5A && $0 < 0x80) }) ? name : name.lowercased()
  }

  /// The path PostgREST sees behind Supabase's gateway: without `/rest/v1`.
  static func path(_ path: String) -> String {
    guard path.hasPrefix("/rest/v1") else { return path }
    let rest = String(path.dropFirst(8))
    return rest.isEmpty ? "/" : rest
  }
}
