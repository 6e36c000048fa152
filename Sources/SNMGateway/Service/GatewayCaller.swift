/// Who calls a service, as the gateway admitted the request (`GatewayAdmission`).
///
/// ```swift
/// caller.auth.role          // "authenticated": the role to run as (`auth.requestRole`)
/// caller.isAuthenticated    // a token verified (an API key's or a user's)
/// ```
public struct GatewayCaller: Sendable, Equatable {
  /// The role and claims the request runs as (anon when nobody is known).
  public var auth: RequestAuth
  /// A token verified (an API key or a user's session).
  public var isAuthenticated: Bool
  /// Why the token sent was refused, when it was (only under `.optionalKey`).
  public var tokenError: String?

  public init(auth: RequestAuth, isAuthenticated: Bool, tokenError: String? = nil) {
    self.auth = auth
    self.isAuthenticated = isAuthenticated
    self.tokenError = tokenError
  }

  /// Nobody admitted: role anon, no token (under `.open`).
  public static let nobody = GatewayCaller(auth: .anonymous, isAuthenticated: false)
}
