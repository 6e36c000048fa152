/// A request under `/admin/oauth`: the OAuth 2.1 server's client routes, matched as GoTrue's
/// router matches them (`internal/api/api.go`, the `/admin/oauth/clients` group). The client id
/// is kept as written: the handler reads it (``OAuthClientsAPI``) after the server switch, and a
/// route with a client id loads that client before a 404 or 405, as GoTrue's
/// `LoadOAuthServerClient` does for the whole group.
///
/// ```swift
/// OAuthAdminRoute(method: "POST", ["clients"])                             // .createClient
/// OAuthAdminRoute(method: "POST", ["clients", id, "regenerate_secret"])  // .regenerateSecret(id)
/// ```
enum OAuthAdminRoute: Equatable {
  case listClients
  case createClient
  /// `/admin/oauth/clients` with a method it does not take.
  case clientsWrongMethod
  case getClient(id: String)
  case updateClient(id: String)
  case deleteClient(id: String)
  case regenerateSecret(id: String)
  /// `/admin/oauth/clients/{id}[/regenerate_secret]` with a method it does not take: 405 once
  /// the client is found.
  case clientWrongMethod(id: String)
  /// Another path under `/admin/oauth/clients/{id}`: 404 once the client is found.
  case clientPathNotFound(id: String)
  /// Any other path under `/admin/oauth`.
  case notFound

  /// `segments`: the path after `/admin/oauth`.
  init(method: String, _ segments: [String]) {
    guard segments.first == "clients" else {
      self = .notFound
      return
    }
    switch segments.count {
    case 1:
      switch method {
      case "GET": self = .listClients
      case "POST": self = .createClient
      default: self = .clientsWrongMethod
      }
    case 2:
      let id = segments[1]
      switch method {
      case "GET": self = .getClient(id: id)
      case "PUT": self = .updateClient(id: id)
      case "DELETE": self = .deleteClient(id: id)
      default: self = .clientWrongMethod(id: id)
      }
    case 3 where segments[2] == "regenerate_secret":
      self =
        method == "POST" ? .regenerateSecret(id: segments[1]) : .clientWrongMethod(id: segments[1])
    default:
      self = .clientPathNotFound(id: segments[1])
    }
  }

  /// The client id the route names, nil for the routes without one.
  var clientID: String? {
    switch self {
    case .getClient(let id), .updateClient(let id), .deleteClient(let id),
      .regenerateSecret(let id), .clientWrongMethod(let id), .clientPathNotFound(let id):
      id
    case .listClients, .createClient, .clientsWrongMethod, .notFound:
      nil
    }
  }
}
