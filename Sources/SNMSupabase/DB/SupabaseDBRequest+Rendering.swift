import SNMNetwork
import SNMWire

extension SupabaseDBRequest {
  /// The chain that built this request, as Swift (spec §6's `swift` field):
  /// `try await remoteDBManager.updateData().setTable("user_info").setBody(...)
  /// .setQuery(.equal("id", UUID(...))).request()`.
  public func swiftChain(style: SwiftLiteral.Style = .abbreviated) -> String {
    var text = "try await remoteDBManager"
    for call in calls {
      switch call {
      case .start(let action):
        text += "." + action.swiftCall
      case .setTable(let table, let schema):
        text +=
          ".setTable(" + SwiftLiteral.string(table)
          + (schema.map { ", schema: " + SwiftLiteral.string($0) } ?? "") + ")"
      case .setBody(let body):
        text += ".setBody(" + (style == .abbreviated ? "..." : SwiftLiteral.json(body)) + ")"
      case .setQuery(let parameters):
        text +=
          ".setQuery(" + parameters.map { $0.swiftExpression(style: style) }.joined(separator: ", ")
          + ")"
      }
    }
    return text + ".request()"
  }

  /// A curl command line that sends this request. The key and the token appear as
  /// `$SUPABASE_ANON_KEY` and `$TOKEN` (double-quoted so the shell expands them), never their values;
  /// everything else is single-quoted for sh.
  ///
  /// ```
  /// curl -X PATCH 'http://127.0.0.1:54321/rest/v1/user_info?id=eq.1' \
  ///   -H "apikey: $SUPABASE_ANON_KEY" \
  ///   -H "Authorization: Bearer $TOKEN" \
  ///   -H 'Content-Type: application/json' \
  ///   -H 'Prefer: return=minimal' \
  ///   -d '{"name":"Lee"}'
  /// ```
  public func curlCommand(multiline: Bool = true) -> String {
    var parts: [String] = []
    switch endpoint.method {
    case .get: parts.append("curl " + Self.shellQuoted(url))
    case .head: parts.append("curl --head " + Self.shellQuoted(url))
    default: parts.append("curl -X \(endpoint.method.rawValue) " + Self.shellQuoted(url))
    }
    parts.append(#"-H "apikey: $SUPABASE_ANON_KEY""#)
    parts.append(#"-H "Authorization: Bearer $TOKEN""#)
    for field in endpoint.headers {
      parts.append("-H " + Self.shellQuoted(field.name + ": " + field.value))
    }
    if let body {
      parts.append("-d " + Self.shellQuoted(body.serialized()))
    }
    return parts.joined(separator: multiline ? " \\\n  " : " ")
  }

  /// `'text'` for sh, with each `'` written as `'\''`.
  static func shellQuoted(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
  }

  /// The spec §6 object: `method`, `path`, `query` (decoded pairs), `url` (exact), `headers`
  /// (`apikey`/`Authorization` left out), `body` (null when none), `swift`, in that order.
  public func explainJSON(style: SwiftLiteral.Style = .abbreviated) -> JSONValue {
    var headers = JSONObject()
    for field in endpoint.headers { headers[field.name] = .string(field.value) }
    return [
      "method": .string(endpoint.method.rawValue),
      "path": .string(endpoint.path),
      "query": .array(query.map { [.string($0.name), .string($0.value)] }),
      "url": .string(url),
      "headers": .object(headers),
      "body": body ?? .null,
      "swift": .string(swiftChain(style: style)),
    ]
  }
}
