import Foundation

extension SNMNetworkProvider {
  /// The most redirects one request follows.
  static let maximumRedirects = 5

  /// The request a redirect answer asks for, or nil when `response` is not a redirect.
  ///
  /// 301, 302, 303, 307 and 308 with a `Location` are followed (relative locations resolved
  /// against the request's URL). A GET or HEAD is followed as it is; a write (POST, PUT, PATCH,
  /// DELETE) is followed only by a redirect that keeps its method and body (307, 308, and 301/302
  /// after anything but a POST). 303, and 301/302 after a POST, would send it again as a GET, as
  /// browsers and curl do: the GET's answer (an `http://` project URL moved to `https://` answers
  /// a table's rows) would be shown as the write's, which may never have been made, so such a
  /// redirect is refused, naming where it pointed. A location on another origin
  /// (scheme, host or port) never receives `apikey`, `Authorization` or `Cookie`: the key and the
  /// session's token are for the project only; nor a body (an upload, an insert's rows): a
  /// redirect that would carry one there is refused, so a body never leaves the origin it was
  /// meant for.
  ///
  /// - Throws: `.malformedResponse` past ``maximumRedirects``, for a location that is not an
  ///   `http`/`https` URL, for a redirect that would turn a write into a GET, or for one on
  ///   another origin that would carry the body.
  static func redirect(_ response: SNMResponse, of request: TransportRequest, count: Int)
    throws(SNMNetworkError) -> TransportRequest?
  {
    guard [301, 302, 303, 307, 308].contains(response.status),
      let location = response.headers["Location"], !location.isEmpty
    else { return nil }
    guard count < maximumRedirects else {
      throw .malformedResponse(
        url: request.url,
        reason: "more than \(maximumRedirects) redirects (the last to \(location))")
    }
    guard let base = URL(string: request.url),
      let target = URL(string: location, relativeTo: base)?.absoluteURL,
      let scheme = target.scheme?.lowercased(), scheme == "http" || scheme == "https",
      target.host != nil
    else {
      throw .malformedResponse(
        url: request.url, reason: "a redirect to '\(location)', which is not an http(s) URL")
    }
    var next = request
    next.url = target.absoluteString
    let becomesGet =
      response.status == 303 && request.method != .head
      || [301, 302].contains(response.status) && request.method == .post
    if becomesGet {
      guard request.method.isRead else {
        throw .malformedResponse(
          url: request.url,
          reason:
            "a \(response.status) redirect to \(target.absoluteString) answered a "
            + "\(request.method.rawValue), which would be sent again as a GET: the write may not "
            + "have been made (not followed; if the project moved, use the URL it names)")
      }
      next.method = .get
      next.body = nil
      next.bodyFile = nil
      next.fields.removeAll { ["content-type", "content-length"].contains($0.name.lowercased()) }
    }
    if origin(of: base) != origin(of: target) {
      guard next.body == nil && next.bodyFile == nil else {
        throw .malformedResponse(
          url: request.url,
          reason:
            "a \(response.status) redirect to \(origin(of: target)), another origin, which would "
            + "carry the request's body there (not followed)")
      }
      next.fields.removeAll {
        ["apikey", "authorization", "cookie"].contains($0.name.lowercased())
      }
    }
    return next
  }

  /// Scheme, host and port (the scheme's default when not written), lowercased.
  static func origin(of url: URL) -> String {
    let scheme = url.scheme?.lowercased() ?? ""
    let port = url.port ?? (scheme == "https" ? 443 : 80)
    return "\(scheme)://\(url.host?.lowercased() ?? ""):\(port)"
  }
}
