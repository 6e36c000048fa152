/// The request line and header fields of one request, before its body.
///
/// ```swift
/// // POST /rest/v1/t HTTP/1.1
/// head.method          // "POST"
/// head.target          // "/rest/v1/t" (an absolute-form target is cut to its path and query)
/// head.framing         // .length(13)
/// ```
public struct HTTPRequestHead: Sendable, Hashable {
  /// The method token as sent (`GET`, `POST`, ...; case kept).
  public var method: String
  /// The target in origin form (`/path?query`), or `*`.
  public var target: String
  /// 0 for HTTP/1.0, 1 for HTTP/1.1.
  public var minorVersion: Int
  public var headers: HTTPHeaders
  /// How the body is framed, as the decoder read it.
  public var framing: HTTPBodyFraming

  public init(
    method: String, target: String, minorVersion: Int = 1, headers: HTTPHeaders = HTTPHeaders(),
    framing: HTTPBodyFraming = .none
  ) {
    self.method = method
    self.target = target
    self.minorVersion = minorVersion
    self.headers = headers
    self.framing = framing
  }

  /// Whether the connection stays open after the answer to this request.
  public var keepAlive: Bool {
    HTTPConnectionTokens(headers).keepAlive(minorVersion: minorVersion)
  }

  /// `Expect: 100-continue`: the client waits for `100 Continue` before sending the body.
  public var expectsContinue: Bool {
    guard let value = headers["Expect"] else { return false }
    return value.trimmingSpaces.lowercased() == "100-continue"
  }
}

/// The tokens of the `Connection` fields, which decide whether a connection is kept.
struct HTTPConnectionTokens {
  let tokens: [String]

  init(_ headers: HTTPHeaders) {
    tokens = headers.values(for: "Connection").flatMap {
      $0.split(separator: ",").map { $0.trimmingSpaces.lowercased() }
    }
  }

  /// HTTP/1.1 keeps the connection unless told `close`; HTTP/1.0 only when told `keep-alive`.
  func keepAlive(minorVersion: Int) -> Bool {
    if tokens.contains("close") { return false }
    return minorVersion >= 1 || tokens.contains("keep-alive")
  }
}
