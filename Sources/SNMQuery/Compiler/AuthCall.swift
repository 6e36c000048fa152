import Foundation
import SNMNetwork
import SNMSupabase
import SNMWire

/// An account, MFA, admin or inbox statement with its values filled in: what the shell runs, and
/// what `explain` shows (``requests(base:)``).
///
/// ```swift
/// let call = try AuthCompiler(scope: scope).compile(statement)   // throws Diagnostic
/// RequestExplainer.render(call, base: url, format: .json)
/// ```
public enum AuthCall: Sendable, Equatable {
  case userShow
  case userUpdate(UserAttributes)
  case reauthenticate
  case passwordReset(email: String)
  case sendOTP(to: OTPRecipient, magicLink: Bool)
  case verifyOTP(to: OTPRecipient, token: String, type: String)
  case resend(type: String, to: OTPRecipient)
  case mfaFactors
  case mfaEnroll(name: String?, issuer: String?)
  /// `factor` nil: the user's one TOTP factor, looked up first.
  case mfaVerify(factor: String?, answer: MFAAnswer)
  case mfaUnenroll(factor: String)
  case adminUsers(page: Int?, perPage: Int?, filter: UserFilter?)
  case adminUser(id: String)
  case adminCreateUser(JSONObject)
  case adminUpdateUser(id: String, attributes: JSONObject)
  case adminDeleteUser(id: String, soft: Bool)
  case adminLink(type: String, email: String, password: String?, data: JSONValue?)
  case adminInvite(email: String, data: JSONValue?)
  case inbox(address: String)
  /// `login apple id-token ...`: the id_token grant.
  case signInWithIDToken(OpenIDConnectCredentials)
  /// `login provider github`: a browser follows `/authorize` with the flow's PKCE challenge,
  /// the redirect brings a code back to a loopback port, the code and verifier buy a session.
  case signInWithProvider(String)

  public enum MFAAnswer: Sendable, Equatable {
    case code(String)
    /// The factor's base32 secret: the code is computed when the statement runs.
    case secret(String)
  }

  /// `where email ilike 'ci-%'`: sent to GoTrue as its substring `filter`, then matched whole.
  public struct UserFilter: Sendable, Equatable {
    public var op: AdminUserFilter.Operator
    public var pattern: String

    /// What GoTrue's `filter` gets: the pattern's longest run without wildcards (GoTrue matches
    /// it anywhere in the address).
    public var serverFilter: String {
      // GoTrue keeps addresses lowercased and compares with LIKE.
      let written = op == .like ? pattern : pattern.lowercased()
      guard op != .eq else { return written }
      let runs = written.split(whereSeparator: { "%_*".contains($0) })
      return String(runs.max(by: { $0.count < $1.count }) ?? "")
    }

    /// Whether `email` matches the whole pattern (SQL LIKE: `%` any run, `_` one character;
    /// `*` as `%`, as PostgREST reads it; `ilike` and `eq` ignore letter case as GoTrue stores
    /// addresses lowercased).
    public func matches(_ email: String) -> Bool {
      let subject = Array(op == .like ? email : email.lowercased())
      let wanted = Array(op == .like ? pattern : pattern.lowercased())
      if op == .eq { return subject == wanted }
      return Self.like(subject[...], wanted[...])
    }

    static func like(_ subject: ArraySlice<Character>, _ pattern: ArraySlice<Character>) -> Bool {
      guard let first = pattern.first else { return subject.isEmpty }
      let rest = pattern.dropFirst()
      switch first {
      case "%", "*":
        var tail = subject
        while true {
          if like(tail, rest) { return true }
          guard !tail.isEmpty else { return false }
          tail = tail.dropFirst()
        }
      case "_":
        return !subject.isEmpty && like(subject.dropFirst(), rest)
      default:
        return subject.first == first && like(subject.dropFirst(), rest)
      }
    }
  }

  /// `.email("...")` or `.phone("...")`, as the Swift chain writes it.
  static func swift(_ recipient: OTPRecipient) -> String {
    ".\(recipient.member)(\(SwiftLiteral.string(recipient.address)))"
  }

  /// Whether the call goes with the service key.
  public var usesServiceKey: Bool {
    switch self {
    case .adminUsers, .adminUser, .adminCreateUser, .adminUpdateUser, .adminDeleteUser, .adminLink,
      .adminInvite, .inbox:
      true
    default: false
    }
  }

  /// Whether the call is a `login` through another provider (a refusal is a failed sign-in).
  public var signsIn: Bool {
    switch self {
    case .signInWithIDToken, .signInWithProvider: true
    default: false
    }
  }

  /// Whether the call waits for a browser (`login provider`), which it says itself.
  public var waitsForBrowser: Bool {
    if case .signInWithProvider = self { true } else { false }
  }

  /// Whether the call needs a signed-in user.
  public var needsSession: Bool {
    switch self {
    case .userShow, .userUpdate, .reauthenticate, .mfaFactors, .mfaEnroll, .mfaVerify,
      .mfaUnenroll:
      true
    default: false
    }
  }

  /// The secrets the call carries (passwords, codes, nonces, TOTP secrets), which reports and
  /// failures never print.
  public var secrets: [String] {
    switch self {
    case .userUpdate(let attributes): [attributes.password, attributes.nonce].compactMap { $0 }
    case .verifyOTP(_, let token, _): [token]
    case .mfaVerify(_, .code(let code)): [code]
    case .mfaVerify(_, .secret(let secret)): [secret]
    case .adminCreateUser(let attributes): [attributes["password"]?.stringValue].compactMap { $0 }
    case .adminUpdateUser(_, let attributes):
      [attributes["password"]?.stringValue].compactMap { $0 }
    case .adminLink(_, _, let password?, _): [password]
    case .signInWithIDToken(let credentials):
      [credentials.idToken, credentials.nonce].compactMap { $0 }
    default: []
    }
  }

  /// The requests the call sends, in order, as `explain` shows them. A value known only when the
  /// statement runs shows as `{factor_id}` or `{challenge_id}`.
  public func requests(base: String) -> [SupabaseAuthRequest] {
    let token = "$TOKEN"
    func auth(_ call: AuthEndpoint, _ swift: String) -> SupabaseAuthRequest {
      var request = SupabaseAuthRequest(call, base: base, swift: "try await authManager." + swift)
      // `{factor_id}`: a value known when the statement runs, shown as a placeholder.
      request.endpoint.path = request.endpoint.path.replacingOccurrences(of: "%7B", with: "{")
        .replacingOccurrences(of: "%7D", with: "}")
      return request
    }
    func admin(_ call: AdminEndpoint, _ swift: String) -> SupabaseAuthRequest {
      SupabaseAuthRequest(call, base: base, swift: "try await adminManager." + swift)
    }
    switch self {
    case .userShow:
      return [auth(.user(accessToken: token), "userJSON(accessToken: token)")]
    case .userUpdate(let attributes):
      return [
        auth(
          .updateUser(accessToken: token, attributes: attributes),
          "updateUser(accessToken: token, attributes: ...)")
      ]
    case .reauthenticate:
      return [auth(.reauthenticate(accessToken: token), "reauthenticate(accessToken: token)")]
    case .passwordReset(let email):
      return [auth(.recover(email: email), "resetPassword(email: \(SwiftLiteral.string(email)))")]
    case .sendOTP(let recipient, _):
      return [
        auth(
          .otp(to: recipient, createUser: true),
          "sendOTP(to: \(Self.swift(recipient)), createUser: true)")
      ]
    case .verifyOTP(let recipient, let token, let type):
      return [
        auth(
          .verify(to: recipient, token: token, type: type),
          "verifyOTP(to: \(Self.swift(recipient)), token: token, type: "
            + "\(SwiftLiteral.string(type)))")
      ]
    case .resend(let type, let recipient):
      return [
        auth(
          .resend(type: type, to: recipient),
          "resend(type: \(SwiftLiteral.string(type)), to: \(Self.swift(recipient)))")
      ]
    case .mfaFactors:
      return [auth(.user(accessToken: token), "factors(accessToken: token)")]
    case .mfaEnroll(let name, let issuer):
      return [
        auth(
          .enrollFactor(accessToken: token, friendlyName: name, issuer: issuer),
          "enrollTOTP(accessToken: token, friendlyName: "
            + (name.map(SwiftLiteral.string) ?? "nil") + ", issuer: "
            + (issuer.map(SwiftLiteral.string) ?? "nil") + ")")
      ]
    case .mfaVerify(let factor, let answer):
      var requests: [SupabaseAuthRequest] = []
      if factor == nil {
        requests.append(auth(.user(accessToken: token), "factors(accessToken: token)"))
      }
      let id = factor ?? "{factor_id}"
      let code: String
      switch answer {
      case .code(let written): code = written
      case .secret: code = "{totp code}"
      }
      requests.append(
        auth(
          .challengeFactor(accessToken: token, factorID: id),
          "challengeFactor(accessToken: token, factorID: \(SwiftLiteral.string(id)))"))
      requests.append(
        auth(
          .verifyFactor(
            accessToken: token, factorID: id, challengeID: "{challenge_id}", code: code),
          "verifyFactor(accessToken: token, factorID: \(SwiftLiteral.string(id)), "
            + "challengeID: challenge, code: code)"))
      return requests
    case .mfaUnenroll(let factor):
      return [
        auth(
          .unenrollFactor(accessToken: token, factorID: factor),
          "unenrollFactor(accessToken: token, factorID: \(SwiftLiteral.string(factor)))")
      ]
    case .adminUsers(let page, let perPage, let filter):
      return [
        admin(
          .listUsers(page: page, perPage: perPage, filter: filter?.serverFilter),
          "listUsers(page: \(page.map(String.init) ?? "nil"), perPage: "
            + "\(perPage.map(String.init) ?? "nil"), filter: "
            + (filter.map { SwiftLiteral.string($0.serverFilter) } ?? "nil") + ")")
      ]
    case .adminUser(let id):
      return [admin(.user(id: id), "user(id: \(SwiftLiteral.string(id)))")]
    case .adminCreateUser(let attributes):
      return [admin(.createUser(attributes: attributes), "createUser(...)")]
    case .adminUpdateUser(let id, let attributes):
      return [
        admin(
          .updateUser(id: id, attributes: attributes),
          "updateUser(id: \(SwiftLiteral.string(id)), attributes: ...)")
      ]
    case .adminDeleteUser(let id, let soft):
      return [
        admin(
          .deleteUser(id: id, soft: soft),
          "deleteUser(id: \(SwiftLiteral.string(id)), soft: \(soft))")
      ]
    case .adminLink(let type, let email, let password, let data):
      return [
        admin(
          .generateLink(type: type, email: email, password: password, data: data),
          "generateLink(type: \(SwiftLiteral.string(type)), email: \(SwiftLiteral.string(email)), "
            + "password: \(password == nil ? "nil" : "password"), data: "
            + "\(data == nil ? "nil" : "..."))")
      ]
    case .adminInvite(let email, let data):
      return [
        admin(
          .invite(email: email, data: data),
          "invite(email: \(SwiftLiteral.string(email)), data: \(data == nil ? "nil" : "..."))")
      ]
    case .inbox(let address):
      return [
        admin(
          .inbox(address: address, limit: 1),
          "inbox(address: \(SwiftLiteral.string(address)), limit: 1)")
      ]
    case .signInWithIDToken(let credentials):
      return [
        auth(
          .signInWithIDToken(credentials),
          "signInWithIdToken(credentials: OpenIDConnectCredentials(provider: "
            + "\(SwiftLiteral.string(credentials.provider)), idToken: idToken, nonce: "
            + (credentials.nonce == nil ? "nil" : "nonce") + "))")
      ]
    case .signInWithProvider(let provider):
      // The loopback port and the flow's challenge, code and verifier are known when it runs.
      let redirect = "http://127.0.0.1:{port}/callback"
      return [
        auth(
          .authorize(provider: provider, redirectTo: redirect, codeChallenge: "{code_challenge}"),
          "signInWithOAuth(provider: \(SwiftLiteral.string(provider)), redirectTo: "
            + "loopbackURL)  // in a browser"),
        auth(
          .exchangeCode(authCode: "{code}", codeVerifier: "{code_verifier}"),
          "exchangeCodeForSession(authCode: code, codeVerifier: verifier)"),
      ]
    }
  }
}
