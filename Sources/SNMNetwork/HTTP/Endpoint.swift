import Foundation
import SNMWire

/// One HTTP request as it goes on the wire, minus what the provider adds at send time
/// (`apikey`, `Authorization`, `X-Client-Info`).
///
/// ```swift
/// let endpoint = Endpoint(
///   baseURL: "http://127.0.0.1:54321", path: "/rest/v1/user_info", method: .get,
///   query: [.init("select", "*"), .init("name", "eq.Kim Lee")])
/// endpoint.url   // http://127.0.0.1:54321/rest/v1/user_info?select=%2A&name=eq.Kim%20Lee
/// ```
public struct Endpoint: Sendable, Hashable {
  /// One query parameter, decoded (the form PostgREST sees after decoding).
  public struct QueryItem: Sendable, Hashable {
    public var name: String
    public var value: String

    public init(_ name: String, _ value: String) {
      self.name = name
      self.value = value
    }
  }

  /// Scheme, host, port and any base path: `http://127.0.0.1:54321`, `https://ref.supabase.co`.
  public var baseURL: String
  /// The path after the base, already encoded, starting with `/`: `/rest/v1/user_info`.
  public var path: String
  public var method: HTTPMethod
  /// Query parameters in order, decoded; ``url`` encodes them.
  public var query: [QueryItem]
  /// Headers in order.
  public var headers: HTTPHeaders
  /// The request body, if any.
  public var body: Data?
  /// Overrides the provider's timeout (seconds) for this request.
  public var timeout: TimeInterval?
  /// A file whose bytes are the body, read from disk as they are sent (never whole in memory);
  /// `body` is then nil. An upload of Storage's.
  public var bodyFile: String?
  /// Where a 200 answer's body goes: streamed into this file (written beside it, then renamed
  /// into place, so the file is whole or absent; it keeps the mode of the file it replaces, or is
  /// made 0600), not into memory. Any other answer's body (a failure's, for its error; a partial
  /// 206's) is read into the response and the file left as it was.
  public var responseFile: String?
  /// Whether its body or its answer holds a secret beyond the key and token fields (a password,
  /// a session's tokens: a sign-in, a refresh): the transport zeroes the memory that held the
  /// answer when it is freed (``TransportRequest/holdsSecrets``).
  public var holdsSecrets = false
  /// Whether a 2xx answer must carry a body (``AnswerBody``): one without is refused as
  /// malformed, never taken as an empty result.
  public var answerBody = AnswerBody.optional
  /// What a 2xx answer's JSON must be at its top level (``AnswerShape``): an array of rows, an
  /// object; nil when any JSON may come (a function's result). The wrong one is refused as
  /// malformed, never shown as a row.
  public var answerShape: AnswerShape?
  /// What sending it may do to the project (``Effect``), for what a failure after it was sent
  /// says; nil: as its method says (``sentEffect``).
  public var effect: Effect?

  /// What a 2xx answer to a request must carry: a body (rows, a listing), or whatever it has
  /// (a write that asked for none, a download, HEAD). A proxy or gateway in front of the project
  /// that answers 200 with nothing would otherwise pass as an empty result.
  public enum AnswerBody: Sendable, Hashable {
    /// A body or none.
    case optional
    /// A body, whatever the 2xx status.
    case required
    /// A body, unless the status is 204 No Content (a function that returns `void`).
    case requiredUnlessNoContent
  }

  public init(
    baseURL: String, path: String, method: HTTPMethod = .get, query: [QueryItem] = [],
    headers: HTTPHeaders = HTTPHeaders(), body: Data? = nil, timeout: TimeInterval? = nil
  ) {
    self.baseURL = baseURL
    self.path = path
    self.method = method
    self.query = query
    self.headers = headers
    self.body = body
    self.timeout = timeout
  }

  /// The query string without `?`: each name and value percent-encoded (every byte outside
  /// `A-Z a-z 0-9 - . _ ~`), pairs joined with `&`.
  public var encodedQuery: String {
    var bytes: [UInt8] = []
    appendQuery(to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  private func appendQuery(to bytes: inout [UInt8]) {
    for (index, item) in query.enumerated() {
      if index > 0 { bytes.append(UInt8(ascii: "&")) }
      PercentEncoding.append(item.name, to: &bytes)
      bytes.append(UInt8(ascii: "="))
      PercentEncoding.append(item.value, to: &bytes)
    }
  }

  /// The exact URL sent: base (without a trailing `/`) + path + `?` + ``encodedQuery`` when non-empty.
  /// Written into one buffer (every request makes one; the pieces joined as strings cost twice).
  public var url: String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(baseURL.utf8.count + path.utf8.count + 16 * query.count + 32)
    var base = baseURL
    base.withUTF8 { base in
      var end = base.count
      while end > 0 && base[end - 1] == UInt8(ascii: "/") { end -= 1 }
      bytes.append(contentsOf: UnsafeBufferPointer(rebasing: base[..<end]))
    }
    var path = path
    path.withUTF8 { bytes.append(contentsOf: $0) }
    // Every item writes at least `=`, so a query with items is never empty.
    if !query.isEmpty {
      bytes.append(UInt8(ascii: "?"))
      appendQuery(to: &bytes)
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Encodes one path segment (a table or function name): `Order Items` -> `Order%20Items`.
  public static func encodePathSegment(_ segment: String) -> String {
    PercentEncoding.encode(segment)
  }
}

/// Anything that can describe itself as an ``Endpoint``: the provider sends these.
///
/// ```swift
/// struct Health: SNMRequestConvertible {
///   func asEndpoint() throws -> Endpoint { Endpoint(baseURL: base, path: "/rest/v1/") }
/// }
/// let response = try await provider.send(Health())
/// ```
public protocol SNMRequestConvertible: Sendable {
  /// The request to send; throws when it cannot be made (a missing table, an invalid body).
  func asEndpoint() throws -> Endpoint
}

extension Endpoint: SNMRequestConvertible {
  /// The endpoint itself.
  public func asEndpoint() -> Endpoint { self }
}
