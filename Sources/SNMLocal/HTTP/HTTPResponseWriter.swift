import SNMWire
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// Serialises responses: status line, the handler's fields, then `Content-Length`, `Date`,
/// `Connection` as the server decides.
enum HTTPResponseWriter {
  /// The bytes of `response`; `bodyless` (HEAD, 204, 304) sends the length but not the body.
  static func serialize(_ response: HTTPResponse, keepAlive: Bool, bodyless: Bool) -> [UInt8] {
    var headers = HTTPHeaders()
    for field in response.headers {
      if HTTPHeaders.sameName(field.name, "Content-Length")
        || HTTPHeaders.sameName(field.name, "Connection")
        || HTTPHeaders.sameName(field.name, "Transfer-Encoding")
      {
        continue
      }
      headers.append(name: field.name, value: field.value)
    }
    if response.status != 204 && response.status >= 200 {
      headers.append(name: "Content-Length", value: String(response.body.count))
    }
    headers.append(name: "Date", value: HTTPDate.shared.now())
    if !keepAlive { headers.append(name: "Connection", value: "close") }
    var bytes = HTTPEncoder.head(of: HTTPResponseHead(status: response.status, headers: headers))
    if !bodyless && response.status != 204 && response.status != 304 {
      bytes.append(contentsOf: response.body)
    }
    return bytes
  }

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
final class HTTPDate: Sendable {
  static let shared = HTTPDate()
  let cache = Mutex<(Int, String)>((0, ""))

  func now() -> String {
    let seconds = time(nil)
    return cache.withLock { cached in
      if cached.0 == seconds { return cached.1 }
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
      cached = (seconds, text)
      return text
    }
  }
}
