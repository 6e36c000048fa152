import SNMGateway
import SNMWire

/// Where GoTrue sends a browser back to, and what it tells it there: a verified link's session
/// or auth code, an OAuth flow's, an error, in the query or the fragment of the target URL.
///
/// ```swift
/// AuthRedirect.seeOther(AuthRedirect.adding([("code", code)], toQueryOf: target))
/// AuthRedirect.found(AuthRedirect.errorLocation(items, target: referrer))
/// ```
enum AuthRedirect {
  /// 303 See Other to `location` (GoTrue's `/verify` and flow-state failures).
  static func seeOther(_ location: String) -> HTTPResponse {
    response(status: 303, location)
  }

  /// GoTrue's `http.Redirect(..., http.StatusFound)`.
  static func found(_ location: String) -> HTTPResponse {
    response(status: 302, location)
  }

  private static func response(status: Int, _ location: String) -> HTTPResponse {
    var headers = HTTPHeaders()
    headers["Location"] = location
    return HTTPResponse(status: status, headers: headers)
  }

  /// `name=value&...` as Go's `url.Values.Encode` writes it (spaces as `+`).
  static func formEncode(_ items: [(String, String)]) -> String {
    items.map { name, value in
      PercentEncoding.encode(name) + "="
        + PercentEncoding.encode(value).replacingOccurrences(of: "%20", with: "+")
    }.joined(separator: "&")
  }

  /// `url` with `items` added to its query (before any fragment).
  static func adding(_ items: [(String, String)], toQueryOf url: String) -> String {
    let parts = url.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
    let base = String(parts[0])
    let joiner = base.contains("?") ? "&" : "?"
    let rest = parts.count > 1 ? "#" + parts[1] : ""
    return base + joiner + formEncode(items) + rest
  }

  /// `target` with its fragment replaced by `items`.
  static func withFragment(_ items: [(String, String)], target: String) -> String {
    withoutFragment(target) + "#" + formEncode(items)
  }

  /// GoTrue's `redirectErrors`: `target` without its fragment, the error's `items` in its query,
  /// and again in the fragment with `sb`.
  static func errorLocation(_ items: [(String, String)], target: String) -> String {
    adding(items, toQueryOf: withoutFragment(target)) + "#" + formEncode(items + [("sb", "")])
  }

  private static func withoutFragment(_ url: String) -> String {
    url.split(separator: "#", maxSplits: 1).first.map(String.init) ?? url
  }

  /// A session's members as the implicit flow's fragment carries them, with `extra`, in the
  /// order Go's `url.Values.Encode` writes them (by name).
  static func sessionItems(_ session: JSONValue, _ extra: [(String, String)]) -> [(String, String)]
  {
    let items = [
      ("access_token", session["access_token"]?.stringValue ?? ""),
      ("expires_at", String(session["expires_at"]?.intValue ?? 0)),
      ("expires_in", String(session["expires_in"]?.intValue ?? 0)),
      ("refresh_token", session["refresh_token"]?.stringValue ?? ""), ("token_type", "bearer"),
    ]
    return (items + extra).sorted { $0.0 < $1.0 }
  }
}
