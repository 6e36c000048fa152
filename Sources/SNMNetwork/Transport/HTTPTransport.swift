import Foundation
import SNMWire

/// Sends one HTTP request and returns the answer, whatever its status: the one seam between
/// ``SNMNetworkProvider`` and the wire. `http://` goes through ``PlainHTTPTransport`` (kept-alive
/// sockets, HTTP/1.1), `https://` through ``CurlTransport`` (TLS, HTTP/2); both keep the same contract, which
/// `HTTPTransportContractTests` runs over each:
///
/// - The request goes out as given: method, the target of `url` exactly as written, `fields` in
///   order (the provider has already added `apikey`, `Authorization`, `X-Client-Info`), `body`.
/// - Any final status is returned (1xx interim answers are skipped); redirects are **not**
///   followed (the provider decides what a redirect may carry).
/// - ``SNMResponse/headers`` has one field per name (repeats joined with ", "), sorted by name;
///   the body is the decoded payload (empty for HEAD, 204, 304).
/// - Failures are ``SNMNetworkError``s naming `url`: `.unreachable` (cause "connection refused",
///   "host not found", "network is unreachable", or a TLS cause); `.timedOut` once `timeout`
///   seconds have passed since the call, however the bytes trickle; `.cancelled` when the calling
///   task is cancelled (the transfer stops and its connection is closed at once);
///   `.malformedResponse` for an answer that is not HTTP, one cut off ("the answer was cut off
///   (...)"), or one whose body passes `maximumBodyBytes` ("the answer is larger than ...").
/// - A `bodyFile` is sent from disk as it is read, with its size as `Content-Length`; a
///   `responseFile` receives a 200 body as it arrives, in a temporary file beside it renamed into
///   place at the end (removed on any failure), so memory holds neither whole; any other answer,
///   a partial 206 too, is read into memory and the file left as it was.
/// - Connections are kept alive and reused; a kept connection the server closed meanwhile is
///   replaced and a request that reads sent again (``TransportRequest/maySendAgain``: by what it
///   does, not its method: `storage ls` is a POST that reads). A write, or a function's call, is
///   never sent twice unless the server said it did not process it: a connection that closes
///   before its answer fails it with ``TransportRequest/unansweredReason(_:)`` (the server may
///   have applied it), or with ``TransportRequest/cutHeadReason(_:)`` after part of a head.
/// - A connection that closes before a byte of the answer is worded by what the request does
///   (``TransportRequest/effect``), not by its method: `storage ls` is a POST that reads
///   ("the connection closed before the request was answered"), an insert may have been applied,
///   an rpc's call may have been (a function may write).
///   Over http:// a write goes again on a new connection only when the kernel refused the first
///   byte of it on the kept one (the server's reset had come): nothing of it was sent.
///
/// ```swift
/// let transport: any HTTPTransport = PlainHTTPTransport(maximumIdlePerHost: 6)
/// let response = try await transport.send(request)   // any status
/// ```
public protocol HTTPTransport: Sendable {
  /// Sends `request`; throws only ``SNMNetworkError`` (never `.http`: statuses are returned).
  func send(_ request: TransportRequest) async throws(SNMNetworkError) -> SNMResponse
}

/// One request as a transport sends it: everything on the wire is decided.
public struct TransportRequest: Sendable {
  public var method: HTTPMethod
  /// The absolute URL, as ``Endpoint/url`` writes it (`http://` or `https://`, with a host).
  public var url: String
  /// Every header field, in order (`Host` and `Content-Length` are the transport's).
  public var fields: [HTTPHeaders.Field] = []
  public var body: Data?
  /// Seconds the whole exchange may take, connecting included.
  public var timeout: TimeInterval = 60
  /// The largest body accepted; a larger one fails as `.malformedResponse`.
  public var maximumBodyBytes: Int = TransportRequest.defaultMaximumBodyBytes
  /// A file sent as the body, a piece at a time (``Endpoint/bodyFile``); `body` is then nil.
  public var bodyFile: String?
  /// Where a 200 answer's body is written (``Endpoint/responseFile``): the response then has an
  /// empty body and ``SNMResponse/savedPath`` set. No byte limit applies to it.
  public var responseFile: String?
  /// The answer holds a secret (``Endpoint/holdsSecrets``): the memory it is read into is zeroed
  /// when freed (over `http://`: the reads, the body's `Data`; libcurl's and OpenSSL's buffers
  /// are theirs). Every request's own bytes are, whatever this says.
  public var holdsSecrets = false
  /// What sending it may do to the project (``Endpoint/sentEffect``): whether it may be sent
  /// again (``maySendAgain``) and the words of a failure before the answer came
  /// (``unansweredReason(_:)``, ``cutHeadReason(_:)``); nil: as its method says.
  public var effect: Endpoint.Effect?

  /// 256 MiB: a hosted project sends at most its `max_rows` (1,000 by default); the local
  /// project's 100,000-row demo result is 33 MiB.
  public static let defaultMaximumBodyBytes = 256 << 20

  /// ``effect`` when set, else its method's (``Endpoint/Effect/init(sending:)``).
  var sentEffect: Endpoint.Effect { effect ?? Endpoint.Effect(sending: method) }

  /// Whether the request goes again on a new connection when the kept one it went out on closed
  /// before any of the answer, the one rule both transports read (``PlainHTTPClient``,
  /// ``CurlTransfer``, ``CurlTransport/mayResend(_:after:transfer:)``): a request that reads
  /// (``sentEffect``: a GET, `storage ls` and `storage sign`, POSTs that read) does, as curl and
  /// browsers send a read again; a write and a function's call (which may write) do not (the
  /// server may have applied it and closed), unless the server said it did not process it.
  var maySendAgain: Bool { sentEffect == .reads }

  /// The reason a request fails when its connection closed before any of the answer came, the
  /// same from every transport, worded by what it does (``sentEffect``): a write's and a function call's may have
  /// been applied (never said not to have: a server may apply a write and close before
  /// answering; neither is sent again), a read's was not answered.
  static func unansweredReason(_ effect: Endpoint.Effect) -> String {
    guard let applied = effect.mayHaveBeenApplied else {
      return "the connection closed before the request was answered"
    }
    return "the connection closed before the answer; \(applied)"
  }

  /// The reason a request fails when its connection closed after part of the answer's head (a
  /// status line cut off, or its fields) and before the head's end: no answer, and what a write or
  /// a function's call may have done (the server had the request whole, and began to answer).
  static func cutHeadReason(_ effect: Endpoint.Effect) -> String {
    let applied = effect.mayHaveBeenApplied.map { "; " + $0 } ?? ""
    return "the connection closed before a complete answer\(applied)"
  }

  /// The reason a request fails when its connection closed before a byte of it was sent (a new
  /// connection's: a kept one's goes again on a new one): nothing of it reached the server.
  static let notSentReason = "the connection closed before the request was sent"

  /// The reason a body past `limit` bytes is refused, the same from every transport.
  static func tooLargeReason(_ limit: Int) -> String {
    let mebibytes = Double(limit) / Double(1 << 20)
    let size =
      mebibytes >= 1 && mebibytes == mebibytes.rounded()
      ? "\(Int(mebibytes)) MiB" : "\(limit) bytes"
    return "the answer is larger than \(size) (ask for fewer rows: limit, or a range)"
  }
}
