import SNMNetwork
import SNMSupabase
import SNMWire

extension RequestExplainer {
  /// A Storage statement in the chosen format, ending with a newline. `storage url` sends
  /// nothing: its URL is all there is to show.
  public static func render(_ compiled: StorageCompiler.Compiled, format: ExplainFormat) -> String {
    switch compiled {
    case .url(let url):
      switch format {
      case .json: return #"{"url":"# + "\"\(url)\"" + #","request":null}"# + "\n"
      case .curl: return "curl " + ShellWord.quoted(url) + "\n"
      case .text: return "(no request: the public URL)\nurl      \(url)\n"
      }
    case .request(_, let request):
      switch format {
      case .json: return request.explainJSON().serialized() + "\n"
      case .curl: return request.curlCommand() + "\n"
      case .text: return readableBlock(request)
      }
    }
  }

  /// The readable block of a Storage request, as ``readableBlock(_:)`` for the DB's.
  public static func readableBlock(_ request: SupabaseStorageRequest) -> String {
    let endpoint = request.endpoint
    let body =
      endpoint.bodyFile.map { ["the bytes of \($0) (streamed from disk)"] }
      ?? request.body.map { [$0.serialized()] } ?? []
    var lines = requestLines(
      endpoint, path: request.explainJSON()["path"]?.stringValue, query: nil, url: request.url,
      body: body)
    if let file = endpoint.responseFile { appendSection("saves to", [file], to: &lines) }
    appendSection("swift", [request.swiftChain()], to: &lines)
    return lines.joined(separator: "\n") + "\n"
  }
}
