import SNMWire

/// One parsed HTTP/1.1 request, as the server hands it to a handler.
///
/// ```swift
/// // GET /rest/v1/dog_profile?select=name&age=gte.3 HTTP/1.1
/// request.method        // "GET"
/// request.target        // "/rest/v1/dog_profile?select=name&age=gte.3"
/// request.path          // "/rest/v1/dog_profile"   (still percent-encoded)
/// request.query         // "select=name&age=gte.3"  (raw, without "?")
/// request.headers["apikey"]
/// ```
public struct HTTPRequest: Sendable, Equatable {
  /// The method token as sent (`GET`, `POST`, ...; case kept).
  public var method: String
  /// The request target exactly as sent on the request line.
  public var target: String
  /// The target before `?`, not percent-decoded.
  public var path: String
  /// The target after the first `?`, raw; empty when there is none.
  public var query: String
  public var headers: HTTPHeaders
  /// The body after Content-Length or chunked decoding.
  public var body: [UInt8]
  /// The peer's address (`127.0.0.1`), for logs.
  public var remoteAddress: String
  /// The connection it came on, while the handler runs (nil for a request made in a test): a
  /// handler that waits on the database watches it to stop when the client hangs up.
  public var peer: HTTPPeer?

  public init(
    method: String, target: String, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = [],
    remoteAddress: String = ""
  ) {
    self.method = method
    self.target = target
    // Cut at the first `?` in the target's contiguous UTF-8 (a scalar boundary: both parts are
    // that UTF-8's own, so decoding them repairs nothing).
    var text = target
    let parts = text.withUTF8 { bytes -> (path: String, query: String)? in
      guard let mark = bytes.firstIndex(of: UInt8(ascii: "?")) else { return nil }
      return (
        String(decoding: UnsafeBufferPointer(rebasing: bytes[..<mark]), as: UTF8.self),
        String(decoding: UnsafeBufferPointer(rebasing: bytes[(mark + 1)...]), as: UTF8.self)
      )
    }
    path = parts?.path ?? target
    query = parts?.query ?? ""
    self.headers = headers
    self.body = body
    self.remoteAddress = remoteAddress
  }

  /// The query string split at `&` into raw (still encoded) `name=value` pairs, in order.
  public var rawQueryItems: [(name: Substring, value: Substring)] {
    query.split(separator: "&", omittingEmptySubsequences: true).map { pair in
      if let equals = pair.firstIndex(of: "=") {
        return (pair[..<equals], pair[pair.index(after: equals)...])
      }
      return (pair, pair[pair.endIndex...])
    }
  }

  /// The first query parameter named `name`, percent-decoded with `+` as space; `nil` if absent.
  public func queryValue(_ name: String) -> String? {
    for item in rawQueryItems where PercentEncoding.decode(item.name, plusIsSpace: true) == name {
      return PercentEncoding.decode(item.value, plusIsSpace: true)
    }
    return nil
  }
}
