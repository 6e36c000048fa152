import Foundation
import SNMNetwork
import SNMWire

/// The GoTrue requests snm sends, as supabase-swift sends them: JSON bodies (always, `{}` for an
/// anonymous sign-up, since GoTrue rejects an empty body) and `X-Supabase-Api-Version: 2024-01-01`.
///
/// ```swift
/// let endpoint = AuthEndpoint.signInWithPassword(email: "a@b.c", password: pw).endpoint(base: url)
/// endpoint.url   // http://127.0.0.1:54321/auth/v1/token?grant_type=password
/// ```
/// The provider adds `apikey`, `Authorization` and `X-Client-Info` when sending. The request
/// shapes are GoTrue's own (`internal/api`: `UserUpdateParams`, `OtpParams`, `VerifyParams`,
/// `EnrollFactorParams`, ...).
public enum AuthEndpoint: Sendable, Hashable {
  case signUpAnonymously
  /// `POST /signup`; `data` is the new user's `user_metadata`.
  case signUp(email: String, password: String, data: JSONValue? = nil)
  case signInWithPassword(email: String, password: String)
  case refresh(refreshToken: String)
  case signOut(accessToken: String, scope: SignOutScope)
  case user(accessToken: String)
  /// `PUT /user` with GoTrue's `UserUpdateParams` (`email`, `password`, `nonce`, `data`).
  case updateUser(accessToken: String, attributes: UserAttributes)
  /// `GET /reauthenticate`: the server mails (or texts) a nonce for a password change.
  case reauthenticate(accessToken: String)
  /// `POST /recover`: a password-reset mail.
  case recover(email: String)
  /// `POST /otp`: a one-time code and magic link by mail, or a code by text (supabase-js'
  /// `signInWithOtp`).
  case otp(to: OTPRecipient, createUser: Bool)
  /// `POST /verify` with a mailed or texted code: signs in.
  case verify(to: OTPRecipient, token: String, type: String)
  /// `POST /resend`: the confirmation (or email-change) mail, or the confirmation text, again.
  case resend(type: String, to: OTPRecipient)
  /// `POST /factors`: a new TOTP factor (unverified until `verifyFactor`).
  case enrollFactor(accessToken: String, friendlyName: String?, issuer: String?)
  /// `POST /factors/{id}/challenge`.
  case challengeFactor(accessToken: String, factorID: String)
  /// `POST /factors/{id}/verify`: answers a challenge; the answer is an aal2 session.
  case verifyFactor(accessToken: String, factorID: String, challengeID: String, code: String)
  /// `DELETE /factors/{id}`.
  case unenrollFactor(accessToken: String, factorID: String)
  /// `POST /token?grant_type=id_token`: a provider's id_token (Sign in with Apple) for a session.
  case signInWithIDToken(OpenIDConnectCredentials)
  /// `GET /authorize?provider=...`: where a browser starts an OAuth provider's redirect flow,
  /// with a PKCE challenge (S256) so the redirect carries a code rather than a session.
  case authorize(provider: String, redirectTo: String, codeChallenge: String)
  /// `POST /token?grant_type=pkce`: a flow's auth code and its verifier for a session.
  case exchangeCode(authCode: String, codeVerifier: String)

  /// The API version header value supabase-swift sends (it selects GoTrue's error format).
  public static let apiVersion = "2024-01-01"

  /// The request against the project at `base` (`http://127.0.0.1:54321`).
  public func endpoint(base: String) -> Endpoint {
    var headers: HTTPHeaders = ["X-Supabase-Api-Version": Self.apiVersion]
    var query: [Endpoint.QueryItem] = []
    var method = HTTPMethod.post
    if let token = accessToken { headers["Authorization"] = "Bearer \(token)" }
    switch self {
    case .user, .reauthenticate: method = .get
    case .authorize(let provider, let redirectTo, let challenge):
      method = .get
      query = [
        .init("provider", provider), .init("redirect_to", redirectTo),
        .init("code_challenge", challenge), .init("code_challenge_method", "s256"),
      ]
    case .signInWithIDToken: query = [.init("grant_type", "id_token")]
    case .exchangeCode: query = [.init("grant_type", "pkce")]
    case .updateUser: method = .put
    case .unenrollFactor: method = .delete
    case .signInWithPassword: query = [.init("grant_type", "password")]
    case .refresh: query = [.init("grant_type", "refresh_token")]
    case .signOut(_, let scope): query = [.init("scope", scope.rawValue)]
    default: break
    }
    let body = self.body
    if body != nil { headers["Content-Type"] = "application/json" }
    var endpoint = Endpoint(
      baseURL: base, path: path, method: method, query: query, headers: headers,
      body: body.map { value in
        var bytes = value.serializedBytes()
        return WipedMemory.data(taking: &bytes)
      })
    // A password or a code goes, a session's tokens or a factor's secret come back: the memory
    // that held the body and the answer is zeroed when freed.
    endpoint.holdsSecrets = true
    switch self {
    case .user, .updateUser:  // the user, as GoTrue describes it: never without its id
      endpoint.answerShape = .object("the user", with: "id")
      endpoint.answerBody = .required
    default: break
    }
    return endpoint
  }

  /// The path under the project URL.
  public var path: String {
    switch self {
    case .signUpAnonymously, .signUp: "/auth/v1/signup"
    case .signInWithPassword, .refresh, .signInWithIDToken, .exchangeCode: "/auth/v1/token"
    case .authorize: "/auth/v1/authorize"
    case .signOut: "/auth/v1/logout"
    case .user, .updateUser: "/auth/v1/user"
    case .reauthenticate: "/auth/v1/reauthenticate"
    case .recover: "/auth/v1/recover"
    case .otp: "/auth/v1/otp"
    case .verify: "/auth/v1/verify"
    case .resend: "/auth/v1/resend"
    case .enrollFactor: "/auth/v1/factors"
    case .challengeFactor(_, let id):
      "/auth/v1/factors/\(Endpoint.encodePathSegment(id))/challenge"
    case .verifyFactor(_, let id, _, _):
      "/auth/v1/factors/\(Endpoint.encodePathSegment(id))/verify"
    case .unenrollFactor(_, let id): "/auth/v1/factors/\(Endpoint.encodePathSegment(id))"
    }
  }

  /// The user's access token the call is made with, if it needs one.
  public var accessToken: String? {
    switch self {
    case .signOut(let token, _), .user(let token), .updateUser(let token, _),
      .reauthenticate(let token), .enrollFactor(let token, _, _), .challengeFactor(let token, _),
      .verifyFactor(let token, _, _, _), .unenrollFactor(let token, _):
      token
    default: nil
    }
  }

  /// The JSON body, in GoTrue's member names; nil for none.
  public var body: JSONValue? {
    switch self {
    case .signUpAnonymously:
      return .object(JSONObject())
    case .signUp(let email, let password, let data):
      var object: JSONObject = ["email": .string(email), "password": .string(password)]
      if let data { object.append("data", data) }
      return .object(object)
    case .signInWithPassword(let email, let password):
      return ["email": .string(email), "password": .string(password)]
    case .refresh(let refreshToken):
      return ["refresh_token": .string(refreshToken)]
    case .updateUser(_, let attributes):
      return .object(attributes.json)
    case .recover(let email):
      return ["email": .string(email)]
    case .otp(let recipient, let createUser):
      var object: JSONObject = [recipient.member: .string(recipient.address)]
      object.append("create_user", .bool(createUser))
      // As supabase-js and supabase-py: a text unless another channel is asked for.
      if case .phone = recipient { object.append("channel", "sms") }
      return .object(object)
    case .verify(let recipient, let token, let type):
      var object: JSONObject = ["type": .string(type)]
      object.append(recipient.member, .string(recipient.address))
      object.append("token", .string(token))
      return .object(object)
    case .resend(let type, let recipient):
      var object: JSONObject = ["type": .string(type)]
      object.append(recipient.member, .string(recipient.address))
      return .object(object)
    case .enrollFactor(_, let name, let issuer):
      var object: JSONObject = ["factor_type": "totp"]
      if let name { object.append("friendly_name", .string(name)) }
      if let issuer { object.append("issuer", .string(issuer)) }
      return .object(object)
    case .challengeFactor:
      return .object(JSONObject())
    case .verifyFactor(_, _, let challengeID, let code):
      return ["challenge_id": .string(challengeID), "code": .string(code)]
    case .signInWithIDToken(let credentials):
      var object: JSONObject = [
        "provider": .string(credentials.provider), "id_token": .string(credentials.idToken),
      ]
      if let nonce = credentials.nonce { object.append("nonce", .string(nonce)) }
      return .object(object)
    case .exchangeCode(let code, let verifier):
      return ["auth_code": .string(code), "code_verifier": .string(verifier)]
    case .signOut, .user, .reauthenticate, .unenrollFactor, .authorize:
      return nil
    }
  }
}

/// What `PUT /auth/v1/user` changes (GoTrue's `UserUpdateParams`): only the members set are sent.
///
/// ```swift
/// var change = UserAttributes()
/// change.data = ["nick": "kim"]
/// try await auth.updateUser(accessToken: token, attributes: change)
/// ```
public struct UserAttributes: Sendable, Hashable {
  public var email: String?
  /// The new password. Secret.
  public var password: String?
  /// The code `GET /reauthenticate` sent, when the project asks for one. Secret.
  public var nonce: String?
  /// `user_metadata` to merge.
  public var data: JSONValue?
  /// Other members of GoTrue's body (`phone`, `app_metadata`, ...), sent as given after these.
  public var other: JSONObject

  public init(
    email: String? = nil, password: String? = nil, nonce: String? = nil, data: JSONValue? = nil,
    other: JSONObject = JSONObject()
  ) {
    self.email = email
    self.password = password
    self.nonce = nonce
    self.data = data
    self.other = other
  }

  /// The body, members in GoTrue's order.
  public var json: JSONObject {
    var object = JSONObject()
    if let email { object.append("email", .string(email)) }
    if let password { object.append("password", .string(password)) }
    if let nonce { object.append("nonce", .string(nonce)) }
    if let data { object.append("data", data) }
    for (key, value) in other { object.append(key, value) }
    return object
  }
}

extension AuthEndpoint: CustomStringConvertible {
  /// The call without its secrets: `POST /auth/v1/token?grant_type=password (a@b.c)`.
  public var description: String {
    switch self {
    case .signUpAnonymously: "POST /auth/v1/signup (anonymous)"
    case .signUp(let email, _, _): "POST /auth/v1/signup (\(email))"
    case .signInWithPassword(let email, _): "POST /auth/v1/token?grant_type=password (\(email))"
    case .refresh: "POST /auth/v1/token?grant_type=refresh_token"
    case .signOut(_, let scope): "POST /auth/v1/logout?scope=\(scope.rawValue)"
    case .user: "GET /auth/v1/user"
    case .updateUser: "PUT /auth/v1/user"
    case .reauthenticate: "GET /auth/v1/reauthenticate"
    case .recover(let email): "POST /auth/v1/recover (\(email))"
    case .otp(let recipient, _): "POST /auth/v1/otp (\(recipient.address))"
    case .verify(let recipient, _, let type):
      "POST /auth/v1/verify (\(type), \(recipient.address))"
    case .resend(let type, let recipient):
      "POST /auth/v1/resend (\(type), \(recipient.address))"
    case .enrollFactor, .challengeFactor, .verifyFactor, .unenrollFactor:
      "\(endpoint(base: "").method.rawValue) \(path)"
    case .signInWithIDToken(let credentials):
      "POST /auth/v1/token?grant_type=id_token (\(credentials.provider))"
    case .authorize(let provider, _, _): "GET /auth/v1/authorize?provider=\(provider)"
    case .exchangeCode: "POST /auth/v1/token?grant_type=pkce"
    }
  }
}
