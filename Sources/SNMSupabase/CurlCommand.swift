import SNMNetwork
import SNMWire

/// The curl command line that sends an endpoint, as `snm explain --curl` prints it for DB and
/// Storage requests alike. The key and the token appear as `$SUPABASE_ANON_KEY` and `$TOKEN`
/// (double-quoted so the shell expands them), never their values; everything else is
/// single-quoted for sh. A body streamed from a file is `--data-binary @file`, an answer saved to
/// a file `-o file`.
///
/// ```
/// curl -X PATCH 'http://127.0.0.1:54321/rest/v1/user_info?id=eq.1' \
///   -H "apikey: $SUPABASE_ANON_KEY" \
///   -H "Authorization: Bearer $TOKEN" \
///   -H 'Content-Type: application/json' \
///   -d '{"name":"Lee"}'
/// ```
enum CurlCommand {
  static func line(
    for endpoint: Endpoint, url: String, body: JSONValue?, multiline: Bool,
    key: String = "$SUPABASE_ANON_KEY", bearer: String? = "$TOKEN"
  ) -> String {
    var parts: [String] = []
    switch endpoint.method {
    case .get: parts.append("curl " + ShellWord.quoted(url))
    case .head: parts.append("curl --head " + ShellWord.quoted(url))
    default: parts.append("curl -X \(endpoint.method.rawValue) " + ShellWord.quoted(url))
    }
    parts.append("-H \"apikey: \(key)\"")
    if let bearer { parts.append("-H \"Authorization: Bearer \(bearer)\"") }
    for field in endpoint.headers {
      parts.append("-H " + ShellWord.quoted(field.name + ": " + field.value))
    }
    if let body { parts.append("-d " + ShellWord.quoted(body.serialized())) }
    if let file = endpoint.bodyFile {
      parts.append("--data-binary " + ShellWord.quoted("@" + file))
    }
    if let file = endpoint.responseFile { parts.append("-o " + ShellWord.quoted(file)) }
    return parts.joined(separator: multiline ? " \\\n  " : " ")
  }
}
