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
  /// `request.cookies` as JSON objects' text. A head of plain fields (every one a client
  /// library sends: token names, values of printable ASCII without quote or backslash) is written
  /// straight into the string's own storage, measured beforehand: names lowercased as they are
  /// copied, values copied as they are (`plainHeaders`); any other is escaped field by field
  /// (`escapedHeaders`). A request without cookies (most) gets `{}` without building an object.
  static func headers(_ headers: HTTPHeaders) -> (headers: String, cookies: String) {
    plainHeaders(headers) ?? escapedHeaders(headers)
  }

  /// `headers(_:)` for a head whose written names and values need no escaping; nil for any
  /// other (found as it is written: the string made so far is then dropped).
  static func plainHeaders(_ headers: HTTPHeaders) -> (headers: String, cookies: String)? {
    let fields = headers.fields
    var room = 2
    for index in fields.indices {
      room += fields[index].name.utf8.count + fields[index].value.utf8.count + 6
    }
    var cookies: JSONObject?
    var plain = true
    let text = String(unsafeUninitializedCapacity: room) { buffer -> Int in
      guard let base = buffer.baseAddress else { return 0 }
      var count = 0
      base[count] = UInt8(ascii: "{")
      count += 1
      for index in fields.indices {
        if isCookie(fields[index].name) {
          cookies = addingCookies(fields[index].value, to: cookies)
          continue
        }
        if isRepeatedLater(fields, index) { continue }
        if count > 1 {
          base[count] = UInt8(ascii: ",")
          count += 1
        }
        base[count] = UInt8(ascii: "\"")
        count += 1
        var name = fields[index].name
        let plainName = name.withUTF8 { bytes -> Bool in
          for byte in bytes {
            guard byte > 0x20, byte < 0x7F, byte != 0x22, byte != 0x5C else { return false }
            base[count] = byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte
            count += 1
          }
          return true
        }
        var value = fields[index].value
        let plainValue = value.withUTF8 { bytes -> Bool in
          guard isPlainValue(bytes) else { return false }
          base[count] = UInt8(ascii: "\"")
          base[count + 1] = UInt8(ascii: ":")
          base[count + 2] = UInt8(ascii: "\"")
          count += 3
          if let source = bytes.baseAddress {
            (base + count).update(from: source, count: bytes.count)
            count += bytes.count
          }
          base[count] = UInt8(ascii: "\"")
          count += 1
          return true
        }
        guard plainName, plainValue else {
          plain = false
          return 0
        }
      }
      base[count] = UInt8(ascii: "}")
      count += 1
      return count
    }
    guard plain else { return nil }
    return (text, cookies.map { JSONValue.object($0).serialized() } ?? "{}")
  }

  /// `headers(_:)` for any head: each name that is no token lowercased and escaped, each value
  /// escaped as JSON.
  static func escapedHeaders(_ headers: HTTPHeaders) -> (headers: String, cookies: String) {
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
      if isCookie(field.name) {
        cookies = addingCookies(field.value, to: cookies)
        continue
      }
      if isRepeatedLater(fields, index) { continue }
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

  /// Whether `name` is `Cookie` in any case.
  static func isCookie(_ name: String) -> Bool {
    name.utf8.count == 6 && HTTPHeaders.sameName(name, "Cookie")
  }

  /// Whether a field after `fields[index]` has its name: a repeated name keeps its last value,
  /// in the place of the last.
  static func isRepeatedLater(_ fields: [HTTPHeaders.Field], _ index: Int) -> Bool {
    let name = fields[index].name
    let length = name.utf8.count
    var later = index + 1
    while later < fields.count {
      let other = fields[later].name
      if other.utf8.count == length, HTTPHeaders.sameName(other, name) { return true }
      later += 1
    }
    return false
  }

  /// `jar` with the cookies of one `Cookie` field (`a=1; b=2`): a name set again moves to the
  /// end with its new value.
  static func addingCookies(_ value: String, to jar: JSONObject?) -> JSONObject {
    var jar = jar ?? JSONObject()
    for pair in value.split(separator: ";") {
      let parts = pair.split(separator: "=", maxSplits: 1)
      guard let key = parts.first?.trimmingCharacters(in: " \t"), !key.isEmpty else {
        continue
      }
      let value = parts.count > 1 ? parts[1].trimmingCharacters(in: " \t") : ""
      jar.removeAll(named: key)
      jar.append(key, .string(value))
    }
    return jar
  }

  /// Whether `value` is written as it is in a JSON string: printable ASCII (space to `~`) but
  /// quote and backslash.
  static func isPlainValue(_ value: String) -> Bool {
    var value = value
    return value.withUTF8 { isPlainValue($0) }
  }

  /// `isPlainValue` of UTF-8 bytes, tested eight at a time (a JWT is a few hundred bytes).
  static func isPlainValue(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    var index = 0
    let raw = UnsafeRawBufferPointer(bytes)
    while index + 8 <= bytes.count {
      let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
      // A byte below 0x20 or from 0x7F up: below 0x20 after adding 0x01 (0x7F..0xFF wrap or set
      // the high bit); `"` and backslash: zero after the XOR. Exact for whether, not for which.
      let low = (word &- ones &* 0x20) & ~word & highs
      let high = (word | (word &+ ones)) & highs
      let quote = word ^ (ones &* 0x22)
      let backslash = word ^ (ones &* 0x5C)
      let odd =
        low | high | ((quote &- ones) & ~quote & highs) | ((backslash &- ones) & ~backslash & highs)
      guard odd == 0 else { return false }
      index += 8
    }
    while index < bytes.count {
      let byte = bytes[index]
      guard byte >= 0x20, byte < 0x7F, byte != 0x22, byte != 0x5C else { return false }
      index += 1
    }
    return true
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
  /// Compared as bytes, the rest cut from them: `hasPrefix` compares characters, and a mark
  /// combining with the byte after the prefix would make that no prefix of the path's
  /// characters (such a path is cut as characters, `pathByCharacters`).
  static func path(_ path: String) -> String {
    var path = path
    let verdict = path.withUTF8 { bytes -> (matches: Bool, rest: String)? in
      let prefix: StaticString = "/rest/v1"
      let length = prefix.utf8CodeUnitCount
      guard bytes.count >= length else { return (false, "") }
      for index in 0..<length where bytes[index] != prefix.utf8Start[index] {
        return (false, "")
      }
      guard bytes.count > length else { return (true, "/") }
      guard bytes[length] < 0x80 else { return nil }
      return (
        true, String(decoding: UnsafeBufferPointer(rebasing: bytes[length...]), as: UTF8.self)
      )
    }
    guard let verdict else { return pathByCharacters(path) }
    return verdict.matches ? verdict.rest : path
  }

  /// `path(_:)` for a path whose byte after `/rest/v1` is not ASCII: cut as characters.
  static func pathByCharacters(_ path: String) -> String {
    guard path.hasPrefix("/rest/v1") else { return path }
    // Those eight characters are eight ASCII bytes: the rest starts eight bytes in.
    let rest = path.utf8.index(path.startIndex, offsetBy: 8)
    return rest == path.endIndex ? "/" : String(path[rest...])
  }
}
