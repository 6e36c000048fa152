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

  /// A curl command line that sends this request (``CurlCommand``). The key and the token
  /// appear as `$SUPABASE_ANON_KEY` and `$TOKEN`, never their values.
  public func curlCommand(multiline: Bool = true) -> String {
    CurlCommand.line(for: endpoint, url: url, body: body, multiline: multiline)
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
