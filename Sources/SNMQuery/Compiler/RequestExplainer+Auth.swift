import SNMNetwork
import SNMSupabase
import SNMWire

extension RequestExplainer {
  /// The requests of an account, MFA, admin or inbox statement in the chosen format, ending
  /// with a newline; several (`mfa verify`: challenge, then verify) one after the other.
  public static func render(_ call: AuthCall, base: String, format: ExplainFormat) -> String {
    let requests = call.requests(base: base)
    switch format {
    case .json:
      return requests.map { $0.explainJSON().serialized() + "\n" }.joined()
    case .curl:
      return requests.map { $0.curlCommand() + "\n" }.joined()
    case .text:
      return requests.map(readableBlock).joined(separator: "\n")
    }
  }

  /// The readable block of an Auth or admin request, as ``readableBlock(_:)`` for the DB's.
  public static func readableBlock(_ request: SupabaseAuthRequest) -> String {
    let endpoint = request.endpoint
    var lines = requestLines(
      endpoint, query: endpoint.query.map { "\($0.name) = \($0.value)" }, url: request.url,
      body: request.body.map { [$0.serialized()] } ?? [])
    let key =
      switch request.credential {
      case .key: "the project's API key"
      case .session: "the session's access token (and the project's API key)"
      case .service: "the service key (never the session)"
      }
    appendSection("with", [key], to: &lines)
    appendSection("swift", [request.swift], to: &lines)
    return lines.joined(separator: "\n") + "\n"
  }

  /// A statement under `as service`: its request as the statement alone would send it, sent
  /// with the service key and no session (curl names `$SUPABASE_SERVICE_ROLE_KEY`).
  static func asService(_ rendered: String, format: ExplainFormat) -> String {
    switch format {
    case .curl:
      return rendered.replacingOccurrences(
        of: #""apikey: $SUPABASE_ANON_KEY""#, with: #""apikey: $SUPABASE_SERVICE_ROLE_KEY""#
      ).replacingOccurrences(
        of: #""Authorization: Bearer $TOKEN""#,
        with: #""Authorization: Bearer $SUPABASE_SERVICE_ROLE_KEY""#)
    case .json:
      return rendered.split(separator: "\n").map { line in
        guard line.hasSuffix("}") else { return String(line) }
        return line.dropLast() + #","credential":"service"}"#
      }.joined(separator: "\n") + "\n"
    case .text:
      return rendered + "with     the service key (never the session)\n"
    }
  }
}
