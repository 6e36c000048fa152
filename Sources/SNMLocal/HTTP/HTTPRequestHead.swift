import SNMWire

/// The request line and header fields of one request, before its body.
struct HTTPRequestHead: Sendable, Equatable {
  var method: String
  var target: String
  /// 0 for HTTP/1.0, 1 for HTTP/1.1.
  var minorVersion: Int
  var headers: HTTPHeaders

  /// How the body is framed.
  enum Framing: Equatable {
    case none
    case length(Int)
    case chunked
  }

  /// Whether the connection stays open after this request's response.
  var keepAlive: Bool {
    let tokens = headers.values(for: "Connection").flatMap {
      $0.split(separator: ",").map { $0.trimmingSpaces.lowercased() }
    }
    if tokens.contains("close") { return false }
    return minorVersion >= 1 || tokens.contains("keep-alive")
  }

  var expectsContinue: Bool {
    headers["Expect"]?.trimmingSpaces.lowercased() == "100-continue"
  }
}

extension StringProtocol {
  /// The text without leading and trailing spaces and tabs.
  var trimmingSpaces: String {
    var view = Substring(self)
    while let first = view.first, first == " " || first == "\t" { view.removeFirst() }
    while let last = view.last, last == " " || last == "\t" { view.removeLast() }
    return String(view)
  }
}
