import SNMGateway
import SNMWire

/// GoTrue's `id_token` grant (`token_oidc.go`) for the local project: Sign in with Apple against
/// the project's test issuer (``TestIdentityProvider``), or Apple and Google against their keys
/// given in the project's config (``ProviderKeys``).
///
/// ```swift
/// let session = try AuthIDTokenGrant(gateway: auth).grant(body)   // POST /token?grant_type=id_token
/// ```
struct AuthIDTokenGrant {
  let gateway: AuthGateway

  /// The issuers GoTrue knows by provider name for the id_token grant (`token_oidc.go`).
  static let idTokenIssuers: [String: String] = [
    "google": "https://accounts.google.com", "facebook": "https://www.facebook.com",
    "kakao": "https://kauth.kakao.com", "keycloak": "",
    "snapchat": "https://accounts.snapchat.com/accounts/oauth2/token",
    "vercel_marketplace": "https://marketplace.vercel.com", "azure": "",
  ]

  /// `POST /token?grant_type=id_token` `{provider, id_token, nonce}`: Sign in with Apple (or
  /// Google), the token verified against the provider's keys the project's config names, else
  /// (Apple) the project's test issuer (`snm local idp token`). GoTrue's checks
  /// in its order: the members, the provider and the issuer the token names, the provider
  /// switched on, the signature and expiry, the subject, the audience, the nonce (the token
  /// carries its SHA-256). The identity's user signs in; a new subject links to the user with its
  /// (verified) address, else a user is made.
  func grant(_ body: JSONValue) throws -> JSONValue {
    let token = body["id_token"]?.stringValue ?? ""
    let provider = body["provider"]?.stringValue ?? ""
    let issuerGiven = body["issuer"]?.stringValue ?? ""
    let nonce = body["nonce"]?.stringValue ?? ""
    guard !token.isEmpty else { throw AuthFailure.oauth("invalid request", "id_token required") }
    let clientID = body["client_id"]?.stringValue ?? ""
    if provider.isEmpty && (clientID.isEmpty || issuerGiven.isEmpty) {
      throw AuthFailure.oauth("invalid request", "provider or client_id and issuer required")
    }
    let verified: Verified
    if provider == "apple" || TestIdentityProvider.appleIssuers.contains(issuerGiven) {
      verified = try apple(token, issuerGiven: issuerGiven)
    } else if provider == "google" || issuerGiven == Self.googleIssuer {
      verified = try google(token)
    } else if let issuer = Self.idTokenIssuers[provider] {
      throw Self.providerDisabled(issuer: issuer)
    } else {
      throw AuthFailure.validationFailed(
        "Custom OIDC provider \(AuthGateway.goQuoted(provider)) not allowed")
    }
    let claims = verified.claims
    let subject = claims["sub"]?.stringValue ?? ""
    guard !subject.isEmpty else {
      throw AuthFailure.oauth("invalid request", "Missing sub claim in id_token")
    }
    let audience = claims["aud"]
    let audiences =
      audience?.stringValue.map { [$0] } ?? audience?.arrayValue?.compactMap(\.stringValue) ?? []
    guard verified.clientIDs.contains(where: { !$0.isEmpty && audiences.contains($0) }) else {
      throw AuthFailure.oauth(
        "invalid request",
        "Unacceptable audience in id_token: [\(audiences.joined(separator: " "))]")
    }
    let tokenNonce = claims["nonce"]?.stringValue ?? ""
    if tokenNonce.isEmpty != nonce.isEmpty {
      throw AuthFailure.oauth(
        "invalid request", "Passed nonce and nonce in id_token should either both exist or not.")
    }
    if !nonce.isEmpty,
      !Crypto.constantTimeEqual(TestIdentityProvider.hashedNonce(nonce), tokenNonce)
    {
      throw AuthFailure.oauth("invalid nonce", "Nonces mismatch")
    }
    return try gateway.inTransaction { connection in
      try Self.spend(
        token, nonce: tokenNonce, claims: claims, provider: verified.provider, on: connection)
      let userID = try Self.identityUser(
        provider: verified.provider, subject: subject, claims: claims, issuer: verified.issuer,
        on: connection)
      return try gateway.createSession(userID: userID, method: "oauth", on: connection)
    }
  }

  /// A token whose signature and expiry held, with what its provider accepts as audience.
  struct Verified {
    var provider: String
    var issuer: String
    var claims: JSONValue
    var clientIDs: [String]
  }

  /// Google's issuer (GoTrue's `IssuerGoogle`).
  static let googleIssuer = "https://accounts.google.com"

  /// An Apple token (GoTrue's order): its issuer detected unverified and Apple's, the one the
  /// request names if any, Apple switched on; then the signature and expiry, by the keys of
  /// `[auth.external.apple] jwks` when the project names them, else by the test issuer's.
  func apple(_ token: String, issuerGiven: String) throws -> Verified {
    guard let detected = Self.unverifiedIssuer(token) else {
      throw AuthFailure.validationFailed("Unable to detect issuer in ID token for Apple provider")
    }
    guard TestIdentityProvider.appleIssuers.contains(detected) else {
      throw AuthFailure.validationFailed("Detected ID token issuer is not an Apple ID token issuer")
    }
    if !issuerGiven.isEmpty && issuerGiven != detected {
      throw AuthFailure.validationFailed("Provided issuer does not match ID token issuer")
    }
    guard gateway.settings.appleEnabled else { throw Self.providerDisabled(issuer: detected) }
    if let keys = gateway.providerKeys["apple"] {
      return Verified(
        provider: "apple", issuer: detected,
        claims: try Self.verify(token, by: keys, now: gateway.now()),
        clientIDs: keys.source.clientIDs)
    }
    guard let testIssuer = gateway.testIssuer else {
      throw Self.providerDisabled(issuer: detected)
    }
    guard let claims = testIssuer.verify(token, now: gateway.now()) else {
      throw AuthFailure.oauth("invalid request", "Bad ID token")
    }
    return Verified(
      provider: "apple", issuer: detected, claims: claims,
      clientIDs: [TestIdentityProvider.clientID])
  }

  /// A Google token, by the keys of `[auth.external.google] jwks` (Google is on only with them);
  /// its `iss` must be Google's, as go-oidc checks it.
  func google(_ token: String) throws -> Verified {
    guard let keys = gateway.providerKeys["google"] else {
      throw Self.providerDisabled(issuer: Self.googleIssuer)
    }
    let claims = try Self.verify(token, by: keys, now: gateway.now())
    guard claims["iss"]?.stringValue == Self.googleIssuer else {
      throw AuthFailure.oauth("invalid request", "Bad ID token")
    }
    return Verified(
      provider: "google", issuer: Self.googleIssuer, claims: claims,
      clientIDs: keys.source.clientIDs)
  }

  /// The claims of a token `keys` verify; GoTrue's "Bad ID token" when they do not, or cannot be
  /// read (a fetch that fails is the token's refusal, never a server error).
  static func verify(_ token: String, by keys: ProviderKeys, now: Double) throws -> JSONValue {
    do {
      return try keys.verify(token, now: now)
    } catch {
      throw AuthFailure.oauth("invalid request", "Bad ID token")
    }
  }

  /// A token signs in once while it is valid, and so does its nonce (whatever token carries it):
  /// a replay is refused as GoTrue refuses a wrong nonce.
  static func spend(
    _ token: String, nonce: String, claims: JSONValue, provider: String = "apple",
    on connection: PGConnection
  ) throws {
    let spent = SpentTokenStore(connection)
    let expiry = claims["exp"]?.intValue ?? 0
    if !nonce.isEmpty, try !spent.spend(provider + "-nonce:" + nonce, until: expiry) {
      throw AuthFailure.oauth("invalid nonce", "Nonce has already been used")
    }
    guard try spent.spend(provider + "-token:" + token, until: expiry) else {
      throw AuthFailure.oauth("invalid request", "id_token has already been used")
    }
  }

  /// GoTrue's answer for a provider that is not switched on.
  static func providerDisabled(issuer: String) -> AuthFailure {
    AuthFailure(
      status: 400, code: "provider_disabled",
      message: "Provider (issuer \(AuthGateway.goQuoted(issuer))) is not enabled")
  }

  /// The `iss` of a token's payload, read without checking the signature (GoTrue's
  /// `DetectAppleIDTokenIssuer`); nil when the token is no JWT.
  static func unverifiedIssuer(_ token: String) -> String? {
    let parts = token.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 3, let payload = Base64URL.decode(parts[1]),
      let claims = try? JSONValue(parsing: payload), claims.objectValue != nil
    else { return nil }
    return claims["iss"]?.stringValue ?? ""
  }

  /// The user whose identity this is, recorded as signed in: found by the provider's subject,
  /// else the user with the provider's verified address (the identity linked to it), else a new
  /// user. `extra` joins the identity's data (a GitHub user name).
  static func identityUser(
    provider: String, subject: String, claims: JSONValue, issuer: String,
    extra: [JSONObject.Member] = [], on connection: PGConnection
  ) throws -> String {
    let email = (claims["email"]?.stringValue ?? "").lowercased()
    let verified =
      claims["email_verified"]?.boolValue ?? (claims["email_verified"]?.stringValue == "true")
    var data: [JSONObject.Member] = [
      .init("iss", .string(issuer)), .init("sub", .string(subject)),
      .init("provider_id", .string(subject)),
    ]
    if !email.isEmpty {
      data += [.init("email", .string(email)), .init("email_verified", .bool(verified))]
    }
    data += extra
    data.append(.init("phone_verified", .bool(false)))
    let identityData = JSONValue.object(data)
    let store = AuthStore(connection)
    let identities = IdentityStore(connection)
    let userID: String
    if let known = try identities.userID(provider: provider, subject: subject) {
      try identities.signIn(provider: provider, subject: subject, data: identityData)
      userID = known
    } else if !email.isEmpty, let existing = try store.user(email: email) {
      guard verified else { throw AuthFailure.emailExists }
      try identities.link(
        userID: existing.id, provider: provider, subject: subject, data: identityData)
      userID = existing.id
    } else {
      userID = try store.insertUser(
        NewAuthUser(
          email: email, provider: provider, userMetadata: identityData,
          emailConfirmed: verified && !email.isEmpty, signedIn: true))
      try identities.link(
        userID: userID, provider: provider, subject: subject, data: identityData)
    }
    if try store.isBanned(userID: userID) { throw AuthFailure.userBanned }
    try store.recordSignIn(userID: userID)
    return userID
  }
}
