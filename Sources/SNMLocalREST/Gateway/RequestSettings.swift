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
  /// `request.cookies` as JSON objects' text. The headers are written straight into one buffer
  /// sized for them: a name that is a token (every name the server reads) is lowercased as it is
  /// copied, and a repeated name is found by comparing names in place (no list of lowercased
  /// copies); a request without cookies (most) gets `{}` without building an object.
  static func headers(_ headers: HTTPHeaders) -> (headers: String, cookies: String) {
    let fields = headers.fields
    var cookies: JSONObject?
    var length = 2
    for field in fields { length += field.name.utf8.count + field.value.utf8.count + 6 }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(length)
    bytes.append(UInt8(ascii: "{"))
    var first = true
    for index in fields.indices {
      let field = fields[index]
      if HTTPHeaders.sameName(field.name, "Cookie") {
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
        continue
      }
      // A repeated name keeps its last value, in the place of the last.
      var later = index + 1
      while later < fields.count, !HTTPHeaders.sameName(fields[later].name, field.name) {
        later += 1
      }
      if later < fields.count { continue }
      if !first { bytes.append(UInt8(ascii: ",")) }
      first = false
      appendName(field.name, to: &bytes)
      bytes.append(UInt8(ascii: ":"))
      JSONValue.appendQuoted(field.value, to: &bytes)
    }
    bytes.append(UInt8(ascii: "}"))
    let cookieText = cookies.map { JSONValue.object($0).serialized() } ?? "{}"
    return (String(decoding: bytes, as: UTF8.self), cookieText)
  }

  /// `name` in lowercase as a JSON string: a token's bytes (visible ASCII, no quote or
  /// backslash) are lowercased as they are copied, anything else is lowercased and escaped.
  static func appendName(_ name: String, to bytes: inout [UInt8]) {
    var name = name
    let copied = name.withUTF8 { text -> Bool in
      for byte in text where byte <= 0x20 || byte >= 0x7F || byte == 0x22 || byte == 0x5C {
        return false
      }
      bytes.append(UInt8(ascii: "\""))
      for byte in text { bytes.append(byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte) }
      bytes.append(UInt8(ascii: "\""))
      return true
    }
    if !copied { JSONValue.appendQuoted(lowercasedName(name), to: &bytes) }
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
