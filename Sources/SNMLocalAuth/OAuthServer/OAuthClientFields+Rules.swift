/// GoTrue's rules for a client's fields (`internal/api/oauthserver/service.go`,
/// `client_auth.go`): what a create or an update may say, in the order it checks them, and the
/// defaults a create fills in.
extension OAuthClientFields {
  static let defaultGrantTypes = ["authorization_code", "refresh_token"]
  static let authMethods = ["none", "client_secret_basic", "client_secret_post"]
  /// The list as GoTrue's messages print it (Go's `%v` of a slice).
  static func shown(_ list: [String]) -> String { "[" + list.joined(separator: " ") + "]" }

  /// The first problem GoTrue finds in a create's fields (its `validate`), nil when none.
  var registrationProblem: String? {
    if let problem = Self.redirectURIsProblem(redirectURIs ?? [], required: true) {
      return problem
    }
    if let grants = grantTypes, !grants.isEmpty, let problem = Self.grantTypesProblem(grants) {
      return problem
    }
    if let problem = Self.textProblems(clientName, clientURI, logoURI) { return problem }
    let type = clientType ?? ""
    if !type.isEmpty && type != "public" && type != "confidential" {
      return "client_type must be 'public' or 'confidential'"
    }
    let method = tokenEndpointAuthMethod ?? ""
    if !method.isEmpty && !Self.authMethods.contains(method) {
      return "token_endpoint_auth_method must be one of: " + Self.shown(Self.authMethods)
    }
    if !type.isEmpty && !method.isEmpty && type != Self.clientType(for: method) {
      return "client_type '\(type)' is inconsistent with token_endpoint_auth_method '\(method)' "
        + "(expected client_type '\(Self.clientType(for: method))')"
    }
    return nil
  }

  /// The client a create makes of these fields (checked first): the type as said, or as the
  /// method implies, or confidential; the method as said, or the type's default; both grant
  /// types unless some are named. Id and times are the store's.
  func newClient(registrationType: String) -> OAuthClientRow {
    let method = tokenEndpointAuthMethod ?? ""
    let type =
      clientType.flatMap { $0.isEmpty ? nil : $0 }
      ?? (method.isEmpty ? "confidential" : Self.clientType(for: method))
    return OAuthClientRow(
      id: "", clientType: type,
      tokenEndpointAuthMethod: method.isEmpty
        ? (type == "public" ? "none" : "client_secret_basic") : method,
      registrationType: registrationType, redirectURIs: redirectURIs ?? [],
      grantTypes: (grantTypes ?? []).isEmpty ? Self.defaultGrantTypes : grantTypes ?? [],
      clientName: Self.nonEmpty(clientName), clientURI: Self.nonEmpty(clientURI),
      logoURI: Self.nonEmpty(logoURI), createdAt: "", updatedAt: "")
  }

  /// An update names none of the fields it may change.
  var isEmptyUpdate: Bool {
    redirectURIs == nil && grantTypes == nil && clientName == nil && clientURI == nil
      && logoURI == nil && tokenEndpointAuthMethod == nil
  }

  /// The first problem GoTrue finds in an update's fields, nil when none.
  var updateProblem: String? {
    if let uris = redirectURIs, let problem = Self.redirectURIsProblem(uris, required: false) {
      return problem
    }
    if let grants = grantTypes, let problem = Self.grantTypesProblem(grants) { return problem }
    if let problem = Self.textProblems(clientName, clientURI, logoURI) { return problem }
    if let method = tokenEndpointAuthMethod, !Self.authMethods.contains(method) {
      return "invalid token_endpoint_auth_method: must be one of " + Self.shown(Self.authMethods)
    }
    return nil
  }

  /// `client` with the fields this update names; the problem when its method does not suit the
  /// client's type (which no update changes).
  func applied(to client: OAuthClientRow) -> (OAuthClientRow, problem: String?) {
    var changed = client
    if let uris = redirectURIs { changed.redirectURIs = uris }
    if let grants = grantTypes { changed.grantTypes = grants }
    if let name = clientName { changed.clientName = Self.nonEmpty(name) }
    if let uri = clientURI { changed.clientURI = Self.nonEmpty(uri) }
    if let uri = logoURI { changed.logoURI = Self.nonEmpty(uri) }
    if let method = tokenEndpointAuthMethod {
      let valid = Self.authMethods(for: client.clientType)
      guard valid.contains(method) else {
        return (
          client,
          "token_endpoint_auth_method '\(method)' is not valid for client_type "
            + "'\(client.clientType)'; valid methods: \(Self.shown(valid))"
        )
      }
      changed.tokenEndpointAuthMethod = method
    }
    return (changed, nil)
  }

  static func clientType(for method: String) -> String {
    method == "none" ? "public" : "confidential"
  }

  static func authMethods(for clientType: String) -> [String] {
    switch clientType {
    case "public": ["none"]
    case "confidential": ["client_secret_basic", "client_secret_post"]
    default: []
    }
  }

  static func redirectURIsProblem(_ uris: [String], required: Bool) -> String? {
    if uris.isEmpty {
      return required ? "redirect_uris is required" : "redirect_uris cannot be empty"
    }
    if uris.count > 10 { return "redirect_uris cannot exceed 10 items" }
    for uri in uris {
      if let problem = OAuthClientURL.redirectProblem(uri) {
        return "invalid redirect_uri '\(uri)': \(problem)"
      }
    }
    return nil
  }

  static func grantTypesProblem(_ grants: [String]) -> String? {
    if grants.isEmpty { return "grant_types cannot be empty" }
    guard grants.allSatisfy(defaultGrantTypes.contains) else {
      return "grant_types must only contain 'authorization_code' and/or 'refresh_token'"
    }
    return nil
  }

  /// The name's and the two URIs' bounds (bytes, as Go counts), the URIs read as request URIs.
  static func textProblems(_ name: String?, _ clientURI: String?, _ logoURI: String?) -> String? {
    if let name, name.utf8.count > 1024 { return "client_name cannot exceed 1024 characters" }
    for (field, value) in [("client_uri", clientURI), ("logo_uri", logoURI)] {
      guard let value, !value.isEmpty else { continue }
      if value.utf8.count > 2048 { return "\(field) cannot exceed 2048 characters" }
      if OAuthClientURL(parsing: value, asRequestURI: true) == nil {
        return "\(field) must be a valid URL"
      }
    }
    return nil
  }

  static func nonEmpty(_ text: String?) -> String? {
    guard let text, !text.isEmpty else { return nil }
    return text
  }
}
