/// Writes HTTP/1.1 heads: a request line or a status line, the fields, the empty line. The
/// framing fields (`Content-Length`, `Connection`) are the caller's to choose; a field value
/// can never split the head (CR and LF in it become spaces).
///
/// ```swift
/// var bytes = HTTPEncoder.head(of: HTTPRequestHead(method: "GET", target: "/rest/v1/t",
///   headers: ["Host": "127.0.0.1:54321"]))
/// bytes += HTTPEncoder.head(of: HTTPResponseHead(status: 204))
/// ```
public enum HTTPEncoder {
  /// `METHOD TARGET HTTP/1.1`, the fields, the empty line.
  public static func head(of request: HTTPRequestHead) -> [UInt8] {
    var text = "\(request.method) \(request.target) HTTP/1.\(request.minorVersion)\r\n"
    appendFields(request.headers, to: &text)
    return Array(text.utf8)
  }

  /// `HTTP/1.1 STATUS REASON`, the fields, the empty line.
  public static func head(of response: HTTPResponseHead) -> [UInt8] {
    var text = "HTTP/1.\(response.minorVersion) \(response.status) \(response.reason)\r\n"
    appendFields(response.headers, to: &text)
    return Array(text.utf8)
  }

  static func appendFields(_ headers: HTTPHeaders, to text: inout String) {
    for field in headers {
      text += sanitized(field.name)
      text += ": "
      text += sanitized(field.value)
      text += "\r\n"
    }
    text += "\r\n"
  }

  /// `value` with CR and LF replaced by spaces, so a field can never end the head or add one.
  public static func sanitized(_ value: String) -> String {
    guard value.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A }) else { return value }
    return String(value.map { $0 == "\r" || $0 == "\n" || $0 == "\r\n" ? " " : $0 })
  }
}
