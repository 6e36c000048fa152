/// The account, MFA, admin and inbox statements (docs/language.md §3): each is one call of
/// `SupabaseAuthManager` or `SupabaseAdminManager`. Values are as written; the compiler
/// (`AuthCompiler`) fills in their variables.
public enum AuthStatement: Sendable, Equatable {
  /// `user show`: the server's view of the signed-in user.
  case userShow
  /// `user update {...}` (the `data`, or a whole `{"data": ..., "email": ...}` object),
  /// `user update email '...'`, `user update password '...' [nonce '...']`.
  case userUpdate(UserUpdate)
  /// `user reauthenticate`: the project mails a nonce for a password change.
  case reauthenticate
  /// `password reset '...'`
  case passwordReset(email: ValueNode)
  /// `login otp email '...'` / `login magic link '...'`: both mail a code and a link;
  /// `login otp phone '...'` texts a code.
  case sendOTP(to: OTPAddress, magicLink: Bool)
  /// `verify otp email '...' token '...' [type signup|magiclink|recovery|email_change|invite|email]`,
  /// `verify otp phone '...' token '...' [type sms|phone_change]`
  case verifyOTP(to: OTPAddress, token: ValueNode, type: String?)
  /// `resend signup '...'` (also `resend email_change '...'`; `resend sms '+1...'` a text).
  case resend(type: String, to: OTPAddress)
  /// `mfa factors`
  case mfaFactors
  /// `mfa enroll totp [name '...'] [issuer '...']`
  case mfaEnroll(name: ValueNode?, issuer: ValueNode?)
  /// `mfa verify [factor] [<id>] code '...'` or `... secret '...'` (the code computed from the
  /// factor's TOTP secret, for scripts).
  case mfaVerify(factor: ValueNode?, answer: MFAAnswer)
  /// `mfa unenroll <id>`
  case mfaUnenroll(factor: ValueNode)
  /// `admin ...`: with the service key.
  case admin(AdminStatement)
  /// `inbox '<address>'`: the newest mail the local project kept for the address.
  case inbox(address: ValueNode)
  /// `login apple id-token <token> [nonce '...']`: GoTrue's id_token grant (Sign in with Apple,
  /// or another provider the grant takes by name); signs in.
  case signInWithIDToken(provider: String, token: ValueNode, nonce: ValueNode?)
  /// `login provider github`: the provider's redirect flow in a browser, with PKCE; signs in.
  case signInWithProvider(String)

  /// What a `mfa verify` answers the challenge with.
  public enum MFAAnswer: Sendable, Equatable {
    /// `code '123456'`: as the authenticator app shows it.
    case code(ValueNode)
    /// `secret '...'`: the factor's base32 secret; snm computes the current code (RFC 6238).
    case secret(ValueNode)
  }

  /// The values the statement uses (for checking variables), in order.
  public var values: [ValueNode] {
    switch self {
    case .userShow, .reauthenticate, .mfaFactors: []
    case .userUpdate(let update): update.values
    case .passwordReset(let email): [email]
    case .sendOTP(let address, _), .resend(_, let address): [address.value]
    case .verifyOTP(let address, let token, _): [address.value, token]
    case .mfaEnroll(let name, let issuer): [name, issuer].compactMap { $0 }
    case .mfaVerify(let factor, let answer):
      switch answer {
      case .code(let value), .secret(let value): [factor].compactMap { $0 } + [value]
      }
    case .mfaUnenroll(let factor): [factor]
    case .admin(let admin): admin.values
    case .inbox(let address): [address]
    case .signInWithIDToken(_, let token, let nonce): [token, nonce].compactMap { $0 }
    case .signInWithProvider: []
    }
  }

  /// Whether the statement needs the project's service key.
  public var needsServiceKey: Bool {
    switch self {
    case .admin, .inbox: true
    default: false
    }
  }

  /// The types `verify otp email ... type` takes (GoTrue's `VerifyParams.type` for email).
  public static let otpTypes = [
    "email", "signup", "magiclink", "recovery", "email_change", "invite",
  ]
  /// The types `verify otp phone ... type` takes (`sms` the default).
  public static let phoneOTPTypes = ["sms", "phone_change"]
  /// The types `resend` takes: a mail's to an address, a text's to a number.
  public static let resendTypes = ["signup", "email_change", "sms", "phone_change"]
  /// The providers GoTrue's id_token grant takes by name (`login <provider> id-token`).
  public static let idTokenProviders = [
    "apple", "google", "azure", "facebook", "kakao", "keycloak", "snapchat",
  ]
  /// The OAuth providers GoTrue's `/authorize` knows by name (`login provider <name>`).
  public static let oauthProviders = [
    "apple", "azure", "bitbucket", "discord", "facebook", "figma", "fly", "github", "gitlab",
    "google", "kakao", "keycloak", "linkedin", "linkedin_oidc", "notion", "slack", "slack_oidc",
    "snapchat", "spotify", "twitch", "twitter", "workos", "x", "zoom",
  ]
}

/// Where a one-time code goes: `email '...'` or `phone '...'`.
public struct OTPAddress: Sendable, Equatable {
  public enum Kind: String, Sendable, Equatable {
    case email, phone
  }

  public var kind: Kind
  public var value: ValueNode

  public init(_ kind: Kind, _ value: ValueNode) {
    self.kind = kind
    self.value = value
  }
}

/// `user update ...`
public struct UserUpdate: Sendable, Equatable {
  /// `{...}`: `user_metadata` to merge, or GoTrue's whole body when it has `data`, `email` or
  /// `password` members.
  public var body: ValueNode?
  public var email: ValueNode?
  public var password: ValueNode?
  /// `nonce '...'`: the code `user reauthenticate` mailed.
  public var nonce: ValueNode?

  public var values: [ValueNode] { [body, email, password, nonce].compactMap { $0 } }
}

/// `admin users|user|create user|update user|delete user|link|invite`.
public enum AdminStatement: Sendable, Equatable {
  /// `admin users [where email ilike|like|eq '...'] [limit N] [page N]`
  case users(filter: AdminUserFilter?, limit: ValueNode?, page: ValueNode?)
  /// `admin user <id>`
  case user(ValueNode)
  /// `admin create user email '...' [password '...'] [confirmed] [data {...}] [app {...}]`
  case createUser(AdminUserCreation)
  /// `admin update user <id> {...}`: GoTrue's `AdminUserParams`, as written.
  case updateUser(id: ValueNode, body: ValueNode)
  /// `admin delete user <id> [soft]`
  case deleteUser(id: ValueNode, soft: Bool)
  /// `admin link magiclink|recovery|invite|signup email '...' [password '...'] [data {...}]`
  case link(type: String, email: ValueNode, password: ValueNode?, data: ValueNode?)
  /// `admin invite '...' [data {...}]`
  case invite(email: ValueNode, data: ValueNode?)

  public var values: [ValueNode] {
    switch self {
    case .users(let filter, let limit, let page):
      [filter?.pattern, limit, page].compactMap { $0 }
    case .user(let id): [id]
    case .createUser(let creation):
      [creation.email, creation.password, creation.data, creation.app].compactMap { $0 }
    case .updateUser(let id, let body): [id, body]
    case .deleteUser(let id, _): [id]
    case .link(_, let email, let password, let data): [email, password, data].compactMap { $0 }
    case .invite(let email, let data): [email, data].compactMap { $0 }
    }
  }

  /// The link types of `admin link` (GoTrue's `generate_link`).
  public static let linkTypes = ["magiclink", "recovery", "invite", "signup"]
}

/// `where email ilike 'ci-%'`: GoTrue filters by a substring of the address; snm sends the
/// pattern's longest literal run and keeps the users whose address matches the whole pattern.
public struct AdminUserFilter: Sendable, Equatable {
  public enum Operator: String, Sendable, Equatable, CaseIterable {
    case eq, like, ilike
  }

  public var op: Operator
  public var pattern: ValueNode
}

/// `admin create user ...`
public struct AdminUserCreation: Sendable, Equatable {
  public var email: ValueNode
  public var password: ValueNode?
  /// `confirmed`: `email_confirm: true`, so the user can sign in at once.
  public var confirmed: Bool = false
  /// `data {...}`: `user_metadata`.
  public var data: ValueNode?
  /// `app {...}`: `app_metadata`.
  public var app: ValueNode?
}
