import Foundation

extension SNMNetworkProvider {
  /// Sends an `http://` request through ``PlainHTTPClient`` and words its failures as URLSession's
  /// would be (``SNMNetworkProvider/classify(_:url:timeout:)``).
  func sendPlain(_ endpoint: Endpoint, url: URL, accessToken: String?) async throws(SNMNetworkError)
    -> SNMResponse
  {
    let address = endpoint.url
    guard let host = url.host else { throw .invalidURL(address) }
    let timeout = endpoint.timeout ?? configuration.timeout
    var fields = Array(endpoint.headers)
    fields += addedFields(endpoint, accessToken: accessToken)
    let request = PlainHTTPClient.Request(
      method: endpoint.method.rawValue,
      host: host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host,
      port: url.port ?? 80, target: Self.requestTarget(address), fields: fields,
      body: endpoint.body, timeout: timeout)
    let answer: PlainHTTPAnswer
    do {
      answer = try await plain.perform(request)
    } catch {
      switch error {
      case .unreachable(let cause): throw .unreachable(url: address, cause: cause)
      case .timedOut: throw .timedOut(url: address, seconds: timeout)
      case .cancelled: throw .cancelled(url: address)
      case .closedEarly:
        throw .malformedResponse(
          url: address, reason: "the connection closed before a complete answer")
      case .malformed(let reason): throw .malformedResponse(url: address, reason: reason)
      }
    }
    let response = SNMResponse(
      url: address, status: answer.status, headers: Self.merged(answer.headers),
      body: answer.body)
    guard response.isSuccess else { throw .http(SNMServerError(response: response)) }
    return response
  }

  /// The path and query of `url` exactly as written (`/rest/v1/t?id=eq.1`), `/` when empty.
  ///
  /// An ASCII URL (every URL a builder makes: values are percent-encoded) is cut on its bytes;
  /// Foundation's `range(of:)` and the walk by grapheme cost a twentieth of a script's time.
  static func requestTarget(_ url: String) -> String {
    guard url.utf8.allSatisfy({ $0 < 0x80 }) else { return requestTargetAsText(url) }
    let bytes = url.utf8
    let start = bytes.firstRange(of: "://".utf8)?.upperBound ?? bytes.startIndex
    var end = start
    while end != bytes.endIndex && bytes[end] != UInt8(ascii: "#") { end = bytes.index(after: end) }
    var cut = start
    while cut != end && bytes[cut] != UInt8(ascii: "/") && bytes[cut] != UInt8(ascii: "?") {
      cut = bytes.index(after: cut)
    }
    guard cut != end else { return "/" }
    let target = Substring(url.utf8[cut..<end])
    return bytes[cut] == UInt8(ascii: "?") ? "/" + target : String(target)
  }

  /// `requestTarget` for a URL with non-ASCII characters, cut as text.
  static func requestTargetAsText(_ url: String) -> String {
    var rest = Substring(url)
    if let scheme = rest.range(of: "://") { rest = rest[scheme.upperBound...] }
    if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }
    guard let cut = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) else { return "/" }
    let target = rest[cut...]
    return target.hasPrefix("?") ? "/" + target : String(target)
  }

  /// Fields as URLSession shows them: one per name (repeats joined with ", "), sorted by name.
  static func merged(_ fields: [HTTPHeaders.Field]) -> HTTPHeaders {
    // Each name lowercased once, not in every comparison of the sort.
    var merged: [(key: String, field: HTTPHeaders.Field)] = []
    var index: [String: Int] = [:]
    for field in fields {
      let key = field.name.lowercased()
      if let at = index[key] {
        merged[at].field.value += ", " + field.value
      } else {
        index[key] = merged.count
        merged.append((key, field))
      }
    }
    return HTTPHeaders(merged.sorted { $0.key < $1.key }.map(\.field))
  }
}
