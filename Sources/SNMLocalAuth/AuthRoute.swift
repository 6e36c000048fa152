/// An Auth API request, matched once to its route as GoTrue's router (`internal/api/api.go`)
/// matches the paths snm serves: the path after `/auth/v1`, trailing slashes dropped, empty
/// segments ignored. Path parameters are kept as written: the handler checks them (a UUID, a
/// known user) after the route's gate, in GoTrue's order.
///
/// ```swift
/// AuthRoute(method: "POST", path: "/auth/v1/factors/0c0e.../verify")  // .verifyFactor("0c0e...")
/// AuthRoute(method: "PATCH", path: "/auth/v1/token")                   // .methodNotAllowed
/// ```
enum AuthRoute: Equatable {
  /// What a route asks of the caller before its handler runs.
  enum Gate: Equatable {
    /// Nothing: the handler reads what it needs.
    case none
    /// An admin's token (`service_role`, `supabase_admin`), checked before the path's own
    /// parameters and before a 404 for an unknown admin path.
    case admin
    /// A user's token, checked before the path's parameters and before a 404 or 405.
    case user
  }

  case health
  case settings
  case signup
  case token
  case user
  case updateUser
  case logout
  case otp
  case magicLink
  case recover
  case resend
  case reauthenticate
  /// `POST /verify`: a code or token hash, answered with a session.
  case verify
  /// `GET /verify`: an e-mailed link, answered with a redirect.
  case verifyLink
  case invite
  /// `GET /authorize?provider=...`: the redirect to an external OAuth provider.
  case authorize
  /// `GET`/`POST /callback`: the OAuth provider's answer (``AuthProviderFlow``).
  case callback
  /// `GET /idp/authorize`: the test issuer's sign-in page standing in for GitHub's.
  case testProviderPage
  /// Any path under `/sso`: SAML single sign-on, which the local project does not offer.
  case sso
  /// Any path under `/user/identities`: manual identity linking, off in the local project.
  case identities

  case listUsers
  case createUser
  case generateLink
  case adminUser(id: String)
  case updateUserAsAdmin(id: String)
  case deleteUser(id: String)
  /// `/admin/users/{id}` with a method it does not take: 405 once the id reads as a UUID.
  case adminUserWrongMethod(id: String)
  case adminUserFactors(userID: String)
  case deleteUserFactor(userID: String, factorID: String)
  /// `/admin/users/{id}/factors/{factor}` with a method but DELETE: 405 once both ids read as
  /// UUIDs and name a user's factor.
  case userFactorWrongMethod(userID: String, factorID: String)
  /// Any path under `/admin/oauth`: the OAuth 2.1 server's client routes (``OAuthClientsAPI``;
  /// GoTrue's 404 feature_disabled once the caller is an admin, when the server is off).
  case adminOAuth(OAuthAdminRoute)
  /// Any other path under `/admin`, answered 404 once the caller is an admin.
  case adminNotFound

  case enrollFactor
  case unenrollFactor(id: String)
  case challengeFactor(id: String)
  case verifyFactor(id: String)
  /// A `/factors` path with a method it does not take, answered 405 once the caller is a user.
  case factorWrongMethod
  /// Any other path under `/factors`, answered 404 once the caller is a user.
  case factorNotFound

  /// A path snm serves, with a method it does not take there.
  case methodNotAllowed
  /// A path snm does not serve: GoTrue's plain `404 page not found`.
  case notFound

  var gate: Gate {
    switch self {
    case .listUsers, .createUser, .generateLink, .adminUser, .updateUserAsAdmin, .deleteUser,
      .adminUserWrongMethod, .adminUserFactors, .deleteUserFactor, .userFactorWrongMethod,
      .adminOAuth, .adminNotFound:
      .admin
    case .enrollFactor, .unenrollFactor, .challengeFactor, .verifyFactor, .factorWrongMethod,
      .factorNotFound:
      .user
    default:
      .none
    }
  }

  init(method: String, path: String) {
    guard path == "/auth/v1" || path.hasPrefix("/auth/v1/") else {
      self = .notFound
      return
    }
    var route = Substring(path.dropFirst("/auth/v1".count))
    while route.hasSuffix("/") && route.count > 1 { route = route.dropLast() }
    let segments = route.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
    let method = method.uppercased()
    switch segments.first {
    case "admin": self = Self.admin(method: method, segments)
    case "factors": self = Self.factors(method: method, segments)
    case "sso": self = .sso
    case "user" where segments.count > 1 && segments[1] == "identities": self = .identities
    default: self = Self.top(method: method, path: String(route))
    }
  }

  /// The routes that are one fixed path.
  static func top(method: String, path: String) -> AuthRoute {
    let byPath: [String: [String: AuthRoute]] = [
      "/health": ["GET": .health], "/settings": ["GET": .settings], "/signup": ["POST": .signup],
      "/token": ["POST": .token], "/user": ["GET": .user, "PUT": .updateUser],
      "/logout": ["POST": .logout], "/otp": ["POST": .otp], "/magiclink": ["POST": .magicLink],
      "/recover": ["POST": .recover], "/resend": ["POST": .resend],
      "/reauthenticate": ["GET": .reauthenticate],
      "/verify": ["POST": .verify, "GET": .verifyLink],
      "/invite": ["POST": .invite], "/authorize": ["GET": .authorize],
      "/callback": ["GET": .callback, "POST": .callback],
      "/idp/authorize": ["GET": .testProviderPage],
    ]
    guard let methods = byPath[path] else { return .notFound }
    return methods[method] ?? .methodNotAllowed
  }

  /// `/admin/users[/{id}[/factors[/{factor}]]]`, `/admin/generate_link`, `/admin/oauth/...`.
  static func admin(method: String, _ route: [String]) -> AuthRoute {
    switch (method, route.count) {
    case ("GET", 2) where route[1] == "users": return .listUsers
    case ("POST", 2) where route[1] == "users": return .createUser
    case ("POST", 2) where route[1] == "generate_link": return .generateLink
    case (_, 2...) where route[1] == "oauth":
      return .adminOAuth(OAuthAdminRoute(method: method, Array(route.dropFirst(2))))
    case (_, 3) where route[1] == "users":
      switch method {
      case "GET": return .adminUser(id: route[2])
      case "PUT": return .updateUserAsAdmin(id: route[2])
      case "DELETE": return .deleteUser(id: route[2])
      default: return .adminUserWrongMethod(id: route[2])
      }
    case ("GET", 4) where route[1] == "users" && route[3] == "factors":
      return .adminUserFactors(userID: route[2])
    case (_, 5) where route[1] == "users" && route[3] == "factors":
      return method == "DELETE"
        ? .deleteUserFactor(userID: route[2], factorID: route[4])
        : .userFactorWrongMethod(userID: route[2], factorID: route[4])
    default:
      return .adminNotFound
    }
  }

  /// `/factors`, `/factors/{id}`, `/factors/{id}/challenge`, `/factors/{id}/verify`.
  static func factors(method: String, _ route: [String]) -> AuthRoute {
    switch (method, route.count) {
    case ("POST", 1): return .enrollFactor
    case ("DELETE", 2): return .unenrollFactor(id: route[1])
    case ("POST", 3) where route[2] == "challenge": return .challengeFactor(id: route[1])
    case ("POST", 3) where route[2] == "verify": return .verifyFactor(id: route[1])
    case (_, 1), (_, 2): return .factorWrongMethod
    case (_, 3) where ["challenge", "verify"].contains(route[2]): return .factorWrongMethod
    default: return .factorNotFound
    }
  }
}
