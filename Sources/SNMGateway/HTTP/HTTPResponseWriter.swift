import SNMWire
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// Serialises responses: status line, the handler's fields, then `Content-Length`, `Date`,
/// `Connection` as the server decides.
enum HTTPResponseWriter {
  /// The bytes of `response`; `bodyless` (HEAD, 204, 304) sends the length but not the body.
  /// Measured, then written straight into one buffer of that size (`HTTPHeadBytes`).
  static func serialize(_ response: HTTPResponse, keepAlive: Bool, bodyless: Bool) -> [UInt8] {
    let streamed = response.bodyStream != nil
    let sendsBody = !bodyless && response.status != 204 && response.status != 304
    let reason = response.reason ?? HTTPStatus.reason(response.status)
    let date = HTTPDate.shared.now()
    // Content-Length, unless the body is streamed or the status has none.
    let length: Int64? =
      streamed || response.status == 204 || response.status < 200
      ? nil : response.bodyFile.map(\.length) ?? Int64(response.body.count)
    let fields = response.headers.fields
    var room = 96 + reason.utf8.count + date.utf8.count + 2 * HTTPHeadBytes.numberRoom
    for field in fields { room += field.name.utf8.count + field.value.utf8.count + 4 }
    if sendsBody { room += response.body.count + (streamed ? HTTPHeadBytes.numberRoom + 4 : 0) }
    return [UInt8](unsafeUninitializedCapacity: room) { buffer, written in
      var head = HTTPHeadBytes(buffer)
      head.append("HTTP/1.1 ")
      head.appendDecimal(Int64(response.status))
      head.append(UInt8(ascii: " "))
      head.appendSanitized(reason)
      head.append("\r\n")
      for field in fields where !isFramingName(field.name) {
        head.appendSanitized(field.name)
        head.append(": ")
        head.appendSanitized(field.value)
        head.append("\r\n")
      }
      if streamed {
        if !bodyless { head.append("Transfer-Encoding: chunked\r\n") }
      } else if let length {
        head.append("Content-Length: ")
        head.appendDecimal(length)
        head.append("\r\n")
      }
      head.append("Date: ")
      head.appendSanitized(date)
      head.append("\r\n")
      if !keepAlive { head.append("Connection: close\r\n") }
      head.append("\r\n")
      if sendsBody {
        if streamed {
          if !response.body.isEmpty {
            head.appendHex(response.body.count)
            head.append("\r\n")
            head.append(response.body)
            head.append("\r\n")
          }
        } else {
          head.append(response.body)
        }
      }
      written = head.count
    }
  }

  /// Whether `name` is one of the framing fields the server writes itself (`Content-Length`,
  /// `Connection`, `Transfer-Encoding`), ASCII letters compared without case as
  /// `HTTPHeaders.sameName` does; told apart by length before any byte is compared.
  static func isFramingName(_ name: String) -> Bool {
    let framing: StaticString
    switch name.utf8.count {
    case 14: framing = "content-length"
    case 10: framing = "connection"
    case 17: framing = "transfer-encoding"
    default: return false
    }
    var name = name
    return name.withUTF8 { bytes in
      for index in 0..<bytes.count {
        let byte = bytes[index]
        let lower = byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte
        if lower != framing.utf8Start[index] { return false }
      }
      return true
    }
  }

  /// One chunk of a chunked body: its size in hex, CRLF, the bytes, CRLF.
  static func chunk(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
    var framed = Array(String(bytes.count, radix: 16).utf8)
    framed.reserveCapacity(framed.count + bytes.count + 4)
    framed += [13, 10]
    framed.append(contentsOf: bytes)
    framed += [13, 10]
    return framed
  }

  /// The last chunk of a chunked body (no trailers).
  static let lastChunk: [UInt8] = Array("0\r\n\r\n".utf8)

  /// The response for a request the server refused before any handler saw it.
  static func failure(_ failure: HTTPParseError) -> HTTPResponse {
    .json(
      status: failure.status,
      .object([
        .init("code", .string("HTTP\(failure.status)")),
        .init("message", .string(failure.message)),
      ]))
  }
}

/// `Date` header text (IMF-fixdate), recomputed at most once a second.
package final class HTTPDate: Sendable {
  static let shared = HTTPDate()
  let cache = Mutex<(Int, String)>((0, ""))

  func now() -> String {
    let seconds = time(nil)
    return cache.withLock { cached in
      if cached.0 == seconds { return cached.1 }
      let text = Self.format(seconds)
      cached = (seconds, text)
      return text
    }
  }

  /// `seconds` since 1970 as an IMF-fixdate (`Tue, 01 Dec 2026 09:00:00 GMT`).
  package static func format(_ seconds: Int) -> String {
    var value = seconds
    var parts = tm()
    gmtime_r(&value, &parts)
    let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    let months = [
      "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ]
    func two(_ number: Int32) -> String { number < 10 ? "0\(number)" : "\(number)" }
    let text =
      "\(days[Int(parts.tm_wday) % 7]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon) % 12]) "
      + "\(parts.tm_year + 1900) \(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    return text
  }

  /// The seconds an IMF-fixdate stands for (what `format` writes); nil for other text.
  package static func parse(_ text: String) -> Int? {
    let parts = text.split(separator: " ")
    let months = [
      "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ]
    guard parts.count == 6, parts[5] == "GMT", let day = Int32(parts[1]),
      let month = months.firstIndex(of: String(parts[2])), let year = Int32(parts[3])
    else { return nil }
    let clock = parts[4].split(separator: ":").compactMap { Int32($0) }
    guard clock.count == 3 else { return nil }
    var fields = tm()
    fields.tm_year = year - 1900
    fields.tm_mon = Int32(month)
    fields.tm_mday = day
    fields.tm_hour = clock[0]
    fields.tm_min = clock[1]
    fields.tm_sec = clock[2]
    let seconds = timegm(&fields)
    return seconds < 0 ? nil : seconds
  }
}
