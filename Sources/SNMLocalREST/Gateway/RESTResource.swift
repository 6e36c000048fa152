import SNMWire

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
    // Cut by UTF-8 offsets (both cuts fall after ASCII bytes): a cut by characters walks them.
    var rest = Substring(path)
    if path.hasPrefix("/rest/v1") { rest = Substring(rest.utf8.dropFirst(8)) }
    guard rest.utf8.first == UInt8(ascii: "/") else {
      if rest.isEmpty { return .root }
      throw RESTError.invalidResourcePath
    }
    let body = Substring(rest.utf8.dropFirst())
    guard let slash = body.utf8.firstIndex(of: UInt8(ascii: "/")) else {
      return body.isEmpty ? .root : .relation(PercentEncoding.decode(body, plusIsSpace: false))
    }
    let first = body[..<slash]
    let second = body[body.index(after: slash)...]
    if second.utf8.contains(UInt8(ascii: "/")) || first.isEmpty {
      throw RESTError.invalidResourcePath
    }
    if second.isEmpty { return .relation(PercentEncoding.decode(first, plusIsSpace: false)) }
    guard first == "rpc" else { throw RESTError.invalidResourcePath }
    return .routine(PercentEncoding.decode(second, plusIsSpace: false))
  }
}
