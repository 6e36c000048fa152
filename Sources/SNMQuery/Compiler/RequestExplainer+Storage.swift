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
    let explained = request.explainJSON()
    var lines = ["\(endpoint.method.rawValue) \(explained["path"]?.stringValue ?? endpoint.path)"]
    func section(_ label: String, _ values: [String]) {
      appendSection(label, values, to: &lines)
    }
    section("url", [request.url])
    section("headers", endpoint.headers.map { "\($0.name): \($0.value)" })
    if let file = endpoint.bodyFile {
      section("body", ["the bytes of \(file) (streamed from disk)"])
    } else {
      section("body", request.body.map { [$0.serialized()] } ?? [])
    }
    if let file = endpoint.responseFile { section("saves to", [file]) }
    section("swift", [request.swiftChain()])
    return lines.joined(separator: "\n") + "\n"
  }
}
