extension HTTPDecoder {
  /// `METHOD TARGET HTTP/1.x`, the fields, and how the body is framed (RFC 9112 §3, §6.3).
  mutating func requestHead(_ lines: [ArraySlice<UInt8>], headBytes: Int) throws(HTTPParseError)
    -> HTTPRequestHead
  {
    let line = try startLine(lines)
    let parts = line.split(separator: 0x20, omittingEmptySubsequences: false)
    guard parts.count == 3, !parts[0].isEmpty, !parts[1].isEmpty else {
      throw .bad("malformed request line: expected 'METHOD TARGET HTTP/1.1'")
    }
    guard parts[0].allSatisfy(Self.isTokenByte) else {
      throw .bad("invalid method in request line")
    }
    guard parts[1].allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
      throw .bad("invalid character in request target")
    }
    let minor = try Self.minorVersion(parts[2], as: "request line")
    var target = String(decoding: parts[1], as: UTF8.self)
    if !target.hasPrefix("/") {
      guard let originForm = Self.originForm(of: target) else {
        throw .bad("request target must start with '/'")
      }
      target = originForm
    }
    var head = HTTPRequestHead(
      method: String(decoding: parts[0], as: UTF8.self), target: target, minorVersion: minor,
      headers: try fields(lines, headBytes: headBytes))
    switch try framing(head.headers, bodyless: false) {
    case .length(let length):
      head.framing = .length(length)
      phase = .fixedBody(remaining: length)
      wantsContinue = length > 0 && head.expectsContinue
    case .chunked:
      head.framing = .chunked
      phase = .chunkSize
      wantsContinue = head.expectsContinue
    case .none, .untilClose:
      // A request's body is never framed by the end of the connection (RFC 9112 §6.3).
      head.framing = .none
      phase = .fixedBody(remaining: 0)
    }
    return head
  }

  /// `HTTP/1.x STATUS [REASON]`, the fields, and how the body is framed: none for an answer to
  /// HEAD and for 1xx, 204 and 304, whatever the fields say.
  mutating func responseHead(_ lines: [ArraySlice<UInt8>], headBytes: Int) throws(HTTPParseError)
    -> HTTPResponseHead
  {
    let line = try startLine(lines)
    let parts = line.split(separator: 0x20, maxSplits: 2, omittingEmptySubsequences: false)
    guard parts.count >= 2, parts[1].count == 3, parts[1].allSatisfy({ (48...57).contains($0) }),
      let status = Int(String(decoding: parts[1], as: UTF8.self)), status >= 100
    else { throw .bad("bad status line") }
    let minor = try Self.minorVersion(parts[0], as: "status line")
    var head = HTTPResponseHead(
      status: status, reason: parts.count > 2 ? String(decoding: parts[2], as: UTF8.self) : "",
      minorVersion: minor, headers: try fields(lines, headBytes: headBytes))
    let bodyless = answersHEAD || status < 200 || status == 204 || status == 304
    head.framing = try framing(head.headers, bodyless: bodyless)
    switch head.framing {
    case .none: phase = .fixedBody(remaining: 0)
    case .length(let length): phase = .fixedBody(remaining: length)
    case .chunked: phase = .chunkSize
    case .untilClose: phase = .untilClose
    }
    return head
  }

  /// How the body is framed (RFC 9112 §6.3); conflicting or invalid framing is refused, and so
  /// is a length past `maxBodyBytes` (before anything is set aside for it).
  func framing(_ headers: HTTPHeaders, bodyless: Bool) throws(HTTPParseError) -> HTTPBodyFraming {
    if bodyless { return .none }
    let encodings = headers.values(for: "Transfer-Encoding")
    let lengths = headers.values(for: "Content-Length")
    if !encodings.isEmpty {
      guard lengths.isEmpty else { throw .bad("both Transfer-Encoding and Content-Length are set") }
      let codings = encodings.flatMap {
        $0.split(separator: ",").map { $0.trimmingSpaces.lowercased() }
      }
      guard codings == ["chunked"] else {
        throw HTTPParseError(status: 501, message: "unsupported Transfer-Encoding (only chunked)")
      }
      return .chunked
    }
    guard !lengths.isEmpty else { return reading == .requests ? .none : .untilClose }
    let values = Set(lengths.flatMap { $0.split(separator: ",").map(\.trimmingSpaces) })
    guard values.count == 1, let text = values.first, !text.isEmpty, text.utf8.count <= 18,
      text.utf8.allSatisfy({ (48...57).contains($0) }), let length = Int(text)
    else { throw .bad("invalid Content-Length") }
    guard length <= limits.maxBodyBytes else { throw bodyTooLarge() }
    return .length(length)
  }

  /// `http://host:port/path?q` to `/path?q`; `*` stays `*`; anything else `nil`.
  static func originForm(of target: String) -> String? {
    if target == "*" { return target }
    for scheme in ["http://", "https://"] where target.lowercased().hasPrefix(scheme) {
      let rest = target.dropFirst(scheme.count)
      guard let slash = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) else { return "/" }
      let tail = String(rest[slash...])
      return tail.hasPrefix("/") ? tail : "/" + tail
    }
    return nil
  }
}
