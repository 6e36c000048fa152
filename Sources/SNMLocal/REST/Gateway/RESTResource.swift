/// What a `/rest/v1/...` path names.
enum RESTResource: Sendable, Equatable {
  /// `/rest/v1/`: the OpenAPI document.
  case root
  /// `/rest/v1/<table or view>`.
  case relation(String)
  /// `/rest/v1/rpc/<function>`.
  case routine(String)

  /// The resource of a request path (still percent-encoded, starting with `/rest/v1`).
  ///
  /// Throws 404 PGRST125 for deeper paths (`/rest/v1/a/b`).
  static func parse(path: String) throws(RESTError) -> RESTResource {
    var rest = Substring(path)
    if rest.hasPrefix("/rest/v1") { rest = rest.dropFirst("/rest/v1".count) }
    let segments = rest.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
      .map { PercentDecoding.decode($0, plusIsSpace: false) }
    switch segments.count {
    case 0: return .root
    case 1: return segments[0].isEmpty ? .root : .relation(segments[0])
    case 2 where segments[0] == "rpc" && !segments[1].isEmpty: return .routine(segments[1])
    case 2 where segments[1].isEmpty && !segments[0].isEmpty: return .relation(segments[0])
    default: throw RESTError.invalidResourcePath
    }
  }
}
