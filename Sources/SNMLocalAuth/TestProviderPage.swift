import SNMGateway
import SNMWire

/// The test issuer's sign-in page standing in for GitHub's (`GET /auth/v1/idp/authorize`, where
/// `/authorize?provider=github` sends the browser in a project started with `--github`): asks
/// which address signs in, then sends the browser to the project's `/callback` with a code of
/// the project's own key for that address and the flow's `state` (or, cancelled, GitHub's
/// `error=access_denied`). Not GoTrue's: a local project's stand-in, as `snm local idp token`
/// is for Apple.
///
/// ```swift
/// TestProviderPage(gateway: auth).handle(request)   // the form, or 302 to /callback
/// ```
struct TestProviderPage {
  let gateway: AuthGateway

  /// `?client_id=...&redirect_uri=<issuer>/callback&state=...` and, from the form,
  /// `login=<address>` (signs in) or `deny=1` (cancels).
  func handle(_ request: HTTPRequest) throws -> HTTPResponse {
    let settings = gateway.settings
    guard settings.githubEnabled, let issuer = gateway.testIssuer else {
      throw AuthFailure.notFound
    }
    let state = request.queryValue("state") ?? ""
    let callback = request.queryValue("redirect_uri") ?? ""
    guard callback == "\(settings.issuer)/callback",
      request.queryValue("client_id") == TestIdentityProvider.clientID, !state.isEmpty
    else {
      return Self.page(
        status: 400, "The redirect_uri, client_id or state is not this project's.")
    }
    if request.queryValue("deny") != nil {
      return AuthRedirect.found(
        AuthRedirect.adding(
          [
            ("error", "access_denied"),
            ("error_description", "The user has denied your application access."),
            ("state", state),
          ], toQueryOf: callback))
    }
    let login = request.queryValue("login") ?? ""
    guard login.contains("@"), !login.hasPrefix("@"), !login.hasSuffix("@"), !login.utf8.contains(0)
    else { return form(state: state, callback: callback, retry: !login.isEmpty) }
    let code = try issuer.mintGitHubCode(email: login, state: state, now: gateway.now())
    return AuthRedirect.found(
      AuthRedirect.adding([("code", code), ("state", state)], toQueryOf: callback))
  }

  /// The sign-in form: an address, Sign in or Cancel.
  func form(state: String, callback: String, retry: Bool) -> HTTPResponse {
    let hidden = [
      ("client_id", TestIdentityProvider.clientID), ("redirect_uri", callback),
      ("state", state),
    ].map { name, value in
      "<input type=\"hidden\" name=\"\(name)\" value=\"\(Self.escaped(value))\">"
    }.joined()
    return Self.page(
      status: 200,
      "Sign in to GitHub (the snm local project's test issuer) as:"
        + (retry ? " <b>an e-mail address, please</b>" : ""),
      form:
        "<form method=\"get\" action=\"\(Self.escaped(gateway.settings.issuer))/idp/authorize\">"
        + hidden
        + "<input type=\"email\" name=\"login\" placeholder=\"kim@example.com\" autofocus> "
        + "<button type=\"submit\">Sign in</button> "
        + "<button type=\"submit\" name=\"deny\" value=\"1\" formnovalidate>Cancel</button></form>")
  }

  static func page(status: Int, _ text: String, form: String = "") -> HTTPResponse {
    var headers = HTTPHeaders()
    headers["Content-Type"] = "text/html; charset=utf-8"
    let body = "<!doctype html><title>snm local: GitHub</title><p>\(text)</p>\(form)\n"
    return HTTPResponse(status: status, headers: headers, body: Array(body.utf8))
  }

  /// Text for an HTML attribute or element, code point by code point as a browser reads it (a
  /// `"` that a combining mark follows is escaped too).
  static func escaped(_ text: String) -> String {
    html.escape(text)
  }

  static let html = ScalarEscaping([
    "&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;",
  ])
}
