import SNMWire

/// A service behind the gateway, called by the router the same way for each: REST, Auth,
/// Storage, the mail inbox (and Realtime and Functions to come).
///
/// ```swift
/// struct EchoService: GatewayService {
///   var prefix: String { "/echo/v1" }
///   var admission: GatewayAdmission { .verifiedRole }
///   func respond(_ request: HTTPRequest, caller: GatewayCaller) -> HTTPResponse {
///     .json(status: 200, .object([.init("role", .string(caller.auth.role))]))
///   }
/// }
/// ```
/// The router picks the service whose `prefix` the path starts with, answers CORS preflights,
/// lets the service answer its open routes (`openResponse`), admits the request as `admission`
/// says (the API key, the token) and calls `respond` with who is calling (`bodyPlan` first, for a
/// service that streams uploads). Called on a server
/// thread, possibly many at once: keep shared state `Sendable`. `request.path` still starts with
/// `prefix`.
public protocol GatewayService: Sendable {
  /// The path prefix served: `/rest/v1` serves `/rest/v1` and `/rest/v1/...`.
  var prefix: String { get }
  /// What the gateway checks before the service sees a request.
  var admission: GatewayAdmission { get }
  /// The answer to a route the gateway leaves open (no API key needed), or nil.
  func openResponse(_ request: HTTPRequest) -> HTTPResponse?
  /// Answers one admitted request. Never throws: every failure is a response.
  func respond(_ request: HTTPRequest, caller: GatewayCaller) -> HTTPResponse
  /// Whether some POST or PUT bodies stream (`bodyPlan`); false: every body is buffered.
  var streamsBodies: Bool { get }
  /// How an admitted POST or PUT's body is read, shown its head (only when `streamsBodies`).
  func bodyPlan(_ request: HTTPRequest, caller: GatewayCaller) -> HTTPBodyPlan
  /// Whether the service answers CORS preflights itself (Functions); false: the gateway does.
  var answersPreflights: Bool { get }
  /// The service's own answer to an `OPTIONS` the gateway would answer (REST: PostgREST's CORS
  /// preflight), or nil for the gateway's.
  func preflight(_ request: HTTPRequest) -> HTTPResponse?
}

extension GatewayService {
  public func openResponse(_ request: HTTPRequest) -> HTTPResponse? { nil }
  public var streamsBodies: Bool { false }
  public func bodyPlan(_ request: HTTPRequest, caller: GatewayCaller) -> HTTPBodyPlan { .buffer }
  public var answersPreflights: Bool { false }
  public func preflight(_ request: HTTPRequest) -> HTTPResponse? { nil }
}
