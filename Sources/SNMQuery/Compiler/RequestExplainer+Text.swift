import SNMNetwork
import SNMSupabase

extension RequestExplainer {
  /// The readable block: method and path, decoded query pairs, URL, headers, body and the Swift chain.
  ///
  /// ```
  /// PATCH /rest/v1/user_info
  /// query    id = eq.0c8e5f7a-6b9d-4f1e-9a3b-2d4c6e8f0a1b
  /// url      http://127.0.0.1:54321/rest/v1/user_info?id=eq.0c8e5f7a-6b9d-4f1e-9a3b-2d4c6e8f0a1b
  /// headers  Content-Type: application/json
  ///          Prefer: return=minimal
  /// body     {"name":"Lee"}
  /// swift    try await remoteDBManager.updateData()
  ///            .setTable("user_info")
  ///            ...
  /// ```
  public static func readableBlock(_ request: SupabaseDBRequest) -> String {
    var lines = requestLines(
      request.endpoint, query: request.query.map { "\($0.name) = \($0.value)" }, url: request.url,
      body: request.body.map { [$0.serialized()] } ?? [])
    appendSection("swift", swiftLines(request), to: &lines)
    return lines.joined(separator: "\n") + "\n"
  }

  /// The lines every request's readable block starts with: method and path (`path`, else the
  /// endpoint's), then the sections query (when given), url, headers and body.
  static func requestLines(
    _ endpoint: Endpoint, path: String? = nil, query: [String]?, url: String, body: [String]
  ) -> [String] {
    var lines = ["\(endpoint.method.rawValue) \(path ?? endpoint.path)"]
    if let query { appendSection("query", query, to: &lines) }
    appendSection("url", [url], to: &lines)
    appendSection("headers", endpoint.headers.map { "\($0.name): \($0.value)" }, to: &lines)
    appendSection("body", body, to: &lines)
    return lines
  }

  /// One labelled section of a readable block: the label padded to 9 columns before the first
  /// value, the rest indented under it, `(none)` when there is no value.
  static func appendSection(_ label: String, _ values: [String], to lines: inout [String]) {
    let padded = label.padding(toLength: 9)
    let indent = String(repeating: " ", count: 9)
    guard !values.isEmpty else {
      lines.append(padded + "(none)")
      return
    }
    for (index, value) in values.enumerated() {
      lines.append((index == 0 ? padded : indent) + value)
    }
  }

  /// The builder chain, one call a line, spelled out so it compiles.
  static func swiftLines(_ request: SupabaseDBRequest) -> [String] {
    var lines: [String] = []
    for call in request.calls {
      switch call {
      case .start(let action):
        lines.append("try await remoteDBManager." + action.swiftCall)
      case .setTable(let table, let schema):
        lines.append(
          "  .setTable(" + SwiftLiteral.string(table)
            + (schema.map { ", schema: " + SwiftLiteral.string($0) } ?? "") + ")")
      case .setBody(let body):
        lines.append("  .setBody(" + SwiftLiteral.json(body) + ")")
      case .setQuery(let parameters):
        lines.append(
          "  .setQuery("
            + parameters.map { $0.swiftExpression(style: .full) }.joined(separator: ", ") + ")")
      }
    }
    lines.append("  .request()")
    return lines
  }
}

extension String {
  /// The text padded with spaces to `length` (never cut).
  func padding(toLength length: Int) -> String {
    count >= length ? self + " " : self + String(repeating: " ", count: length - count)
  }
}
