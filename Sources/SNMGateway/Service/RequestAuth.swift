import SNMWire

/// Who a request runs as, after the router verified its JWT.
///
/// ```swift
/// auth.role          // "authenticated"
/// auth.claimsJSON    // {"sub":"…","role":"authenticated",…} for request.jwt.claims
/// auth.userID        // the `sub` claim, if any
/// ```
/// Without an `Authorization` header the router uses the `apikey`'s claims (anon or service_role).
public struct RequestAuth: Sendable, Equatable {
  /// The database role to `SET LOCAL ROLE` to (from the `role` claim).
  public var role: String
  /// The verified claims object, for reading.
  public var claims: JSONValue
  /// The claims as compact JSON text, for `set_config('request.jwt.claims', …, true)`.
  public var claimsJSON: String
  /// True when no user token came with the request (the role is `anon`): 42501 answers 401, not 403.
  public var isAnonymous: Bool

  public init(role: String, claims: JSONValue, isAnonymous: Bool) {
    self.init(role: role, claims: claims, claimsJSON: claims.serialized(), isAnonymous: isAnonymous)
  }

  /// With the claims' text already written (`JWTCache.verifiedClaims`); it must be `claims`'s
  /// compact serialisation.
  package init(role: String, claims: JSONValue, claimsJSON: String, isAnonymous: Bool) {
    self.role = role
    self.claims = claims
    self.claimsJSON = claimsJSON
    self.isAnonymous = isAnonymous
  }

  /// The role and claims to run a transaction as (`PGPool.transaction(as:)`).
  public var requestRole: RequestRole { RequestRole(role: role, claims: claimsJSON) }

  /// The `sub` claim (the auth user's id), if any.
  public var userID: String? { claims["sub"]?.stringValue }

  /// The role a request without any token runs as.
  public static let anonymous = RequestAuth(
    role: "anon", claims: .object([.init("role", .string("anon"))]), isAnonymous: true)
}
