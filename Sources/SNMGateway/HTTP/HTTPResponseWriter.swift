import SNMWire
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// Serialises responses: status line, the handler's fields, then `Content-Length`, `Date`,
/// `Connection` as the server decides.
enum HTTPResponseWriter {
  /// The bytes of `response`; `bodyless` (HEAD, 204, 304) sends the length but not the body.
  /// Written straight into one buffer sized for the head and the body.
  static func serialize(_ response: HTTPResponse, keepAlive: Bool, bodyless: Bool) -> [UInt8] {
    let streamed = response.bodyStream != nil
    let sendsBody = !bodyless && response.status != 204 && response.status != 304
    var bytes: [UInt8] = []
    bytes.reserveCapacity(256 + (sendsBody ? response.body.count + 16 : 0))
    HTTPEncoder.appendStatusLine(
      of: HTTPResponseHead(status: response.status, reason: response.reason), to: &bytes)
    for field in response.headers {
      if HTTPHeaders.sameName(field.name, "Content-Length")
        || HTTPHeaders.sameName(field.name, "Connection")
        || HTTPHeaders.sameName(field.name, "Transfer-Encoding")
      {
        continue
      }
      HTTPEncoder.appendField(name: field.name, value: field.value, to: &bytes)
    }
    if streamed {
      if !bodyless {
        HTTPEncoder.appendField(name: "Transfer-Encoding", value: "chunked", to: &bytes)
      }
    } else if response.status != 204 && response.status >= 200 {
      let length = response.bodyFile.map { String($0.length) } ?? String(response.body.count)
      HTTPEncoder.appendField(name: "Content-Length", value: length, to: &bytes)
    }
    HTTPEncoder.appendField(name: "Date", value: HTTPDate.shared.now(), to: &bytes)
    if !keepAlive { HTTPEncoder.appendField(name: "Connection", value: "close", to: &bytes) }
    HTTPEncoder.appendEnd(to: &bytes)
    if sendsBody {
      if streamed {
        if !response.body.isEmpty {
          response.body.withUnsafeBytes { bytes.append(contentsOf: chunk($0)) }
        }
      } else {
        bytes.append(contentsOf: response.body)
      }
    }
    return bytes
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
