import SNMNetwork
import SNMWire

/// An Auth (GoTrue) or admin request as `explain` shows it: offline, its secrets masked.
///
/// ```swift
/// let request = SupabaseAuthRequest(.user(accessToken: "$TOKEN"), base: url)
/// request.explainJSON()   // {"method": "GET", "path": "/auth/v1/user", ...}
/// request.curlCommand()   // curl ... -H "Authorization: Bearer $TOKEN"
/// ```
/// `apikey` and `Authorization` are never shown with values: curl names them
/// `$SUPABASE_ANON_KEY` (or `$SUPABASE_SERVICE_ROLE_KEY` for the service key) and `$TOKEN`. Body
/// members that hold a secret (a password, a nonce, a code) show as `"********"`.
public struct SupabaseAuthRequest: Sendable, Equatable {
  /// Which credentials the request goes with.
  public enum Credential: String, Sendable, Equatable {
    /// The project's key alone (`recover`, `otp`, `verify`, sign-in).
    case key
    /// The signed-in user's access token.
    case session
    /// The service key, never a session.
    case service
  }

  /// The endpoint, without its `Authorization` header.
  public var endpoint: Endpoint
  public var credential: Credential
  /// The manager call that sends it, as Swift.
  public var swift: String

  public init(_ call: AuthEndpoint, base: String, swift: String) {
    var endpoint = call.endpoint(base: base)
    endpoint.headers["Authorization"] = nil
    self.init(
      endpoint: endpoint, credential: call.accessToken == nil ? .key : .session, swift: swift,
      body: call.body)
  }

  public init(_ call: AdminEndpoint, base: String, swift: String) {
    self.init(
      endpoint: call.endpoint(base: base), credential: .service, swift: swift, body: call.body)
  }

  init(endpoint: Endpoint, credential: Credential, swift: String, body: JSONValue?) {
    self.endpoint = endpoint
    self.credential = credential
    self.swift = swift
    self.body = body.map { SecretMembers.masked($0) }
  }

  /// The body with its secrets masked.
  public var body: JSONValue?

  public var url: String { endpoint.url }

  /// The curl command line (secrets masked, keys and tokens as shell variables).
  public func curlCommand(multiline: Bool = true) -> String {
    let key = credential == .service ? "$SUPABASE_SERVICE_ROLE_KEY" : "$SUPABASE_ANON_KEY"
    let bearer: String? =
      switch credential {
      case .key: nil
      case .session: "$TOKEN"
      case .service: "$SUPABASE_SERVICE_ROLE_KEY"
      }
    return CurlCommand.line(
      for: endpoint, url: url, body: body, multiline: multiline, key: key, bearer: bearer)
  }

  /// The spec §6 object, plus `credential` (`key`, `session` or `service`).
  public func explainJSON() -> JSONValue {
    var headers = JSONObject()
    for field in endpoint.headers { headers[field.name] = .string(field.value) }
    return [
      "method": .string(endpoint.method.rawValue),
      "path": .string(endpoint.path),
      "query": .array(endpoint.query.map { [.string($0.name), .string($0.value)] }),
      "url": .string(url),
      "headers": .object(headers),
      "body": body ?? .null,
      "credential": .string(credential.rawValue),
      "swift": .string(swift),
    ]
  }
}
