import SNMGateway
import SNMWire

/// GoTrue's OAuth providers' redirect flow (`external.go`) for the local project, with the test
/// issuer standing in for GitHub (`--github`): `GET /authorize?provider=github` keeps a flow state
/// (with the PKCE challenge when one is sent) and sends the browser to the test issuer's sign-in
/// page (``TestProviderPage``), which sends it to `GET /callback?code=...&state=...`; the
/// callback verifies the code, finds or makes the user (as the id_token grant does), and sends
/// the browser to `redirect_to` with `?code=` (PKCE: `POST /token?grant_type=pkce` trades it)
/// or the session in the fragment (implicit). Failures after the state is known go to
/// `redirect_to` as `error`, `error_code`, `error_description`; a bad state goes to the site URL.
///
/// ```swift
/// try AuthProviderFlow(gateway: auth).authorize(request)   // 302 to the provider
/// AuthProviderFlow(gateway: auth).callback(request)        // 302/303 back to the app
/// ```
struct AuthProviderFlow {
  let gateway: AuthGateway
  var settings: AuthSettings { gateway.settings }

  /// The OAuth providers GoTrue knows by name (`/authorize?provider=`).
  static let oauthProviders: Set<String> = [
    "apple", "azure", "bitbucket", "discord", "facebook", "figma", "fly", "github", "gitlab",
    "google", "kakao", "keycloak", "linkedin", "linkedin_oidc", "notion", "snapchat", "spotify",
    "slack", "slack_oidc", "twitch", "twitter", "x", "vercel_marketplace", "workos", "zoom",
  ]

  /// The only provider the test issuer stands in for.
  static let testProvider = "github"

  /// `GET /authorize?provider=NAME[&redirect_to=URL][&code_challenge=C&code_challenge_method=M]`.
  /// GoTrue looks the provider up first and answers 400 validation_failed "Unsupported provider:
  /// ..." for an unknown one, a disabled one and a custom one (custom providers are off here);
  /// then the PKCE members (``PKCEChallenge``).
  func authorize(_ request: HTTPRequest) throws -> HTTPResponse {
    let name = (request.queryValue("provider") ?? "").lowercased()
    guard name == Self.testProvider, settings.githubEnabled, gateway.testIssuer != nil else {
      let reason: String
      if name.hasPrefix("custom:") {
        reason = "custom OAuth providers are disabled"
      } else if Self.oauthProviders.contains(name) {
        reason = "provider is not enabled"
      } else {
        reason = "Provider \(name) could not be found"
      }
      throw AuthFailure.validationFailed("Unsupported provider: \(reason)")
    }
    var members = JSONObject()
    for key in ["code_challenge", "code_challenge_method"] {
      if let value = request.queryValue(key) { members.append(key, .string(value)) }
    }
    let pkce = try PKCEChallenge(.object(members))
    let referrer = settings.redirectURL(request.queryValue("redirect_to"))
    let state = try gateway.inTransaction { connection in
      try FlowStateStore(connection).createProviderFlow(
        provider: name, pkce: pkce, referrer: referrer)
    }
    return AuthRedirect.found(
      "\(settings.issuer)/idp/authorize?"
        + AuthRedirect.formEncode([
          ("client_id", TestIdentityProvider.clientID),
          ("redirect_uri", "\(settings.issuer)/callback"), ("response_type", "code"),
          ("scope", "user:email"), ("state", state),
        ]))
  }

  /// `GET` (or form `POST`) `/callback?code=...&state=...`: the provider's answer.
  func callback(_ request: HTTPRequest) -> HTTPResponse {
    let form = request.method == "POST" ? Self.formValues(request.body) : [:]
    func value(_ name: String) -> String { form[name] ?? request.queryValue(name) ?? "" }
    let state = value("state")
    guard !state.isEmpty else {
      return siteError(
        AuthFailure(
          status: 400, code: "bad_oauth_callback", message: "OAuth state parameter missing"))
    }
    guard UUIDText.canonical(state) != nil else {
      return siteError(
        AuthFailure(
          status: 400, code: "bad_oauth_state", message: "OAuth state parameter is invalid"))
    }
    do {
      let fresh = try spend(code: value("code"), state: state)
      return try gateway.inTransaction { connection in
        try finish(
          state: state, code: value("code"), fresh: fresh, error: value("error"),
          description: value("error_description"), on: connection)
      }
    } catch let stop as Stop {
      return stop.response
    } catch let failure as AuthFailure {
      return siteError(failure)
    } catch {
      return siteError(.internalError)
    }
  }

  /// Spends a code the test issuer signed for `state`, as GitHub spends a code at its exchange:
  /// in a transaction of its own, so the code stays spent whatever the callback does next. False
  /// when it was spent before (``providerUser`` refuses it); true when there is nothing to spend.
  func spend(code: String, state: String) throws -> Bool {
    guard !code.isEmpty,
      let claims = gateway.testIssuer?.verifyGitHubCode(code, state: state, now: gateway.now())
    else { return true }
    return try gateway.inTransaction { connection in
      try SpentTokenStore(connection).spend(
        "github-code:" + code, until: claims["exp"]?.intValue ?? 0)
    }
  }

  /// Why a callback ends early: its answer, sent after the transaction is rolled back.
  struct Stop: Error {
    var response: HTTPResponse
  }

  /// The callback inside its transaction: the flow state's checks (a failure goes to the site
  /// URL), then the provider's answer (a failure goes to the flow's `redirect_to`).
  func finish(
    state: String, code: String, fresh: Bool, error: String, description: String,
    on connection: PGConnection
  ) throws -> HTTPResponse {
    let flows = FlowStateStore(connection)
    func badState(_ code: String, _ message: String) -> Stop {
      Stop(response: siteError(AuthFailure(status: 400, code: code, message: message)))
    }
    guard let flow = try flows.providerFlow(id: state) else {
      throw badState("bad_oauth_state", "OAuth state not found or expired")
    }
    guard flow.age <= PKCEChallenge.expiry else {
      throw badState("bad_oauth_state", "OAuth state has expired")
    }
    let isPKCE = !flow.challenge.isEmpty
    if isPKCE && flow.userID != nil {
      throw badState("flow_state_already_used", "State has already been used")
    }
    do {
      let userID = try providerUser(
        flow, code: code, fresh: fresh, error: error, description: description, on: connection)
      if isPKCE {
        try flows.complete(id: flow.id, userID: userID)
        return AuthRedirect.found(
          AuthRedirect.adding([("code", flow.authCode)], toQueryOf: flow.referrer))
      }
      let session = try gateway.createSession(userID: userID, method: "oauth", on: connection)
      try flows.delete(id: flow.id)
      let fragment = AuthRedirect.sessionItems(
        session, [("provider_token", "snm-test-github-" + String(flow.id.prefix(8))), ("sb", "")])
      return AuthRedirect.found(AuthRedirect.withFragment(fragment, target: flow.referrer))
    } catch let failure as AuthFailure {
      throw Stop(response: Self.redirectError(failure, to: flow.referrer))
    }
  }

  /// The user the provider's answer names: an error it sent, a code the test issuer did not
  /// sign or one spent before (`fresh` false), or a new user where sign-ups are off is GoTrue's
  /// failure.
  func providerUser(
    _ flow: FlowStateStore.ProviderFlow, code: String, fresh: Bool, error: String,
    description: String, on connection: PGConnection
  ) throws -> String {
    if !error.isEmpty { throw AuthFailure.oauth(error, description) }
    guard !code.isEmpty else {
      throw AuthFailure(
        status: 400, code: "bad_oauth_callback",
        message: "OAuth callback with missing authorization code missing")
    }
    guard
      let claims = gateway.testIssuer?.verifyGitHubCode(code, state: flow.id, now: gateway.now())
    else {
      throw AuthFailure.unexpectedFailure(
        "Unable to exchange external code: the test issuer did not sign it")
    }
    guard fresh else {
      throw AuthFailure.unexpectedFailure(
        "Unable to exchange external code: the code was already used")
    }
    let subject = claims["sub"]?.stringValue ?? ""
    let email = claims["email"]?.stringValue ?? ""
    if !settings.signupEnabled,
      try IdentityStore(connection).userID(provider: flow.provider, subject: subject) == nil,
      try AuthStore(connection).user(email: email) == nil
    {
      throw AuthFailure.signupDisabled
    }
    return try AuthIDTokenGrant.identityUser(
      provider: flow.provider, subject: subject, claims: claims,
      issuer: TestIdentityProvider.githubIdentityIssuer,
      extra: [
        .init("user_name", claims["user_name"] ?? .null),
        .init("preferred_username", claims["user_name"] ?? .null),
      ], on: connection)
  }

  /// GoTrue's `redirectErrors`: 302 to `target` with the error in the query and the fragment.
  static func redirectError(_ failure: AuthFailure, to target: String) -> HTTPResponse {
    AuthRedirect.found(AuthRedirect.errorLocation(errorItems(failure), target: target))
  }

  /// GoTrue's `loadFlowState` failure: 303 to the site URL with the error in the query.
  func siteError(_ failure: AuthFailure) -> HTTPResponse {
    AuthRedirect.seeOther(
      AuthRedirect.adding(Self.errorItems(failure), toQueryOf: settings.siteURL))
  }

  /// `error`, `error_code`, `error_description` as GoTrue's `getErrorQueryString` sets them
  /// (sorted, as Go's `url.Values.Encode` writes them).
  static func errorItems(_ failure: AuthFailure) -> [(String, String)] {
    if failure.isOAuthError {
      return [("error", failure.code), ("error_description", failure.message)]
    }
    let error: String
    switch failure.status {
    case _ where ["signup_disabled", "user_banned"].contains(failure.code): error = "access_denied"
    case 400: error = "invalid_request"
    case 401: error = "unauthorized_client"
    case 403: error = "access_denied"
    default: error = "server_error"
    }
    return [("error", error), ("error_code", failure.code), ("error_description", failure.message)]
  }

  /// A form body's members (`a=1&b=x+y`).
  static func formValues(_ body: [UInt8]) -> [String: String] {
    var values: [String: String] = [:]
    for pair in body.split(separator: UInt8(ascii: "&")) {
      let halves = pair.split(
        separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
      let name = String(
        decoding: PercentEncoding.decode(bytes: halves[0], plusIsSpace: true), as: UTF8.self)
      let value =
        halves.count > 1
        ? String(
          decoding: PercentEncoding.decode(bytes: halves[1], plusIsSpace: true), as: UTF8.self) : ""
      if values[name] == nil { values[name] = value }
    }
    return values
  }
}
