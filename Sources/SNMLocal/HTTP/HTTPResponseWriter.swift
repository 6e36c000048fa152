import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// Serialises responses: status line, the handler's fields, then `Content-Length`, `Date`,
/// `Connection` as the server decides.
enum HTTPResponseWriter {
  /// The bytes of `response`; `bodyless` (HEAD, 204, 304) sends the length but not the body.
  static func serialize(_ response: HTTPResponse, keepAlive: Bool, bodyless: Bool) -> [UInt8] {
    var head = "HTTP/1.1 \(response.status) \(HTTPResponse.reason(response.status))\r\n"
    for field in response.headers {
      let lower = field.name.lowercased()
      if lower == "content-length" || lower == "connection" || lower == "transfer-encoding" {
        continue
      }
      head += field.name
      head += ": "
      head += sanitized(field.value)
      head += "\r\n"
    }
    if response.status != 204 && response.status >= 200 {
      head += "Content-Length: \(response.body.count)\r\n"
    }
    head += "Date: \(HTTPDate.shared.now())\r\n"
    head += keepAlive ? "" : "Connection: close\r\n"
    head += "\r\n"
    var bytes = Array(head.utf8)
    if !bodyless && response.status != 204 && response.status != 304 {
      bytes.append(contentsOf: response.body)
    }
    return bytes
  }

  /// A header value with CR and LF replaced, so a handler can never split a response.
  static func sanitized(_ value: String) -> String {
    guard value.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A }) else { return value }
    return String(value.map { $0 == "\r" || $0 == "\n" || $0 == "\r\n" ? " " : $0 })
  }

  /// The response for a request the server refused before any handler saw it.
  static func failure(_ failure: HTTPParseFailure) -> HTTPResponse {
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
