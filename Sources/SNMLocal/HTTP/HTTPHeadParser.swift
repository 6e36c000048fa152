import SNMWire

/// Parses a request line and header fields (RFC 9112 §3, §5), leniently about line endings.
enum HTTPHeadParser {
  /// Finds the end of the head in `buffer[from...]`: the index just after the empty line, or `nil`.
  /// Leading empty lines before the request line are skipped, as RFC 9112 §2.2 allows.
  static func headEnd(in buffer: [UInt8], from start: Int) -> Int? {
    var index = start
    var lineStart = start
    var sawContent = false
    while index < buffer.count {
      if buffer[index] == 0x0A {
        var lineEnd = index
        if lineEnd > lineStart, buffer[lineEnd - 1] == 0x0D { lineEnd -= 1 }
        if lineEnd == lineStart {
          if sawContent { return index + 1 }
        } else {
          sawContent = true
        }
        lineStart = index + 1
      }
      index += 1
    }
    return nil
  }

  /// Parses `buffer[start..<end]` (ending with the empty line). Throws `HTTPParseFailure`.
  static func parse(
    _ buffer: [UInt8], start: Int, end: Int, limits: HTTPServerLimits
  ) throws(HTTPParseFailure) -> HTTPRequestHead {
    var lines: [ArraySlice<UInt8>] = []
    var lineStart = start
    for index in start..<end where buffer[index] == 0x0A {
      var lineEnd = index
      if lineEnd > lineStart, buffer[lineEnd - 1] == 0x0D { lineEnd -= 1 }
      if !(lines.isEmpty && lineEnd == lineStart) { lines.append(buffer[lineStart..<lineEnd]) }
      lineStart = index + 1
    }
    if lines.last?.isEmpty == true { lines.removeLast() }
    guard let requestLine = lines.first else { throw .bad("empty request") }
    guard requestLine.count <= limits.maxRequestLineBytes else {
      throw HTTPParseFailure(status: 414, message: "request line too long")
    }
    var head = try parseRequestLine(requestLine)
    let fieldLines = lines.dropFirst()
    guard fieldLines.count <= limits.maxHeaderCount else {
      throw HTTPParseFailure(status: 431, message: "too many header fields")
    }
    guard end - start - requestLine.count <= limits.maxHeaderBytes else {
      throw HTTPParseFailure(status: 431, message: "header fields too large")
    }
    for line in fieldLines { try addField(line, to: &head.headers) }
    return head
  }

  static func parseRequestLine(_ line: ArraySlice<UInt8>) throws(HTTPParseFailure)
    -> HTTPRequestHead
  {
    let parts = line.split(separator: 0x20, omittingEmptySubsequences: false)
    guard parts.count == 3, !parts[0].isEmpty, !parts[1].isEmpty else {
      throw .bad("malformed request line: expected 'METHOD TARGET HTTP/1.1'")
    }
    guard parts[0].allSatisfy(isTokenByte) else { throw .bad("invalid method in request line") }
    guard parts[1].allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
      throw .bad("invalid character in request target")
    }
    let version = Array(parts[2])
    guard version.count == 8, version.starts(with: Array("HTTP/".utf8)),
      version[6] == UInt8(ascii: "."),
      (48...57).contains(version[5]), (48...57).contains(version[7])
    else { throw .bad("malformed HTTP version in request line") }
    guard version[5] == UInt8(ascii: "1") else {
      throw HTTPParseFailure(status: 505, message: "only HTTP/1.0 and HTTP/1.1 are supported")
    }
    var target = String(decoding: parts[1], as: UTF8.self)
    if !target.hasPrefix("/") {
      guard let originForm = originForm(of: target) else {
        throw .bad("request target must start with '/'")
      }
      target = originForm
    }
    return HTTPRequestHead(
      method: String(decoding: parts[0], as: UTF8.self), target: target,
      minorVersion: Int(version[7] - 48), headers: HTTPHeaders())
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

  static func addField(_ line: ArraySlice<UInt8>, to headers: inout HTTPHeaders)
    throws(HTTPParseFailure)
  {
    guard let first = line.first, first != 0x20, first != 0x09 else {
      throw .bad("obsolete line folding in header fields is not supported")
    }
    guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else {
      throw .bad("header field without ':'")
    }
    let name = line[line.startIndex..<colon]
    guard !name.isEmpty, name.allSatisfy(isTokenByte) else {
      throw .bad("invalid header field name")
    }
    let value = line[(colon + 1)...]
    guard value.allSatisfy({ $0 == 0x09 || $0 >= 0x20 && $0 != 0x7F }) else {
      throw .bad("invalid character in header field value")
    }
    let text = String(decoding: value, as: UTF8.self).trimmingSpaces
    headers.append(name: String(decoding: name, as: UTF8.self), value: text)
  }

  /// tchar of RFC 9110 §5.6.2.
  static func isTokenByte(_ byte: UInt8) -> Bool {
    switch byte {
    case 48...57, 65...90, 97...122: true
    case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"),
      UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"),
      UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"),
      UInt8(ascii: "~"):
      true
    default: false
    }
  }

  /// How the body is framed (RFC 9112 §6.3). Throws for conflicting or invalid framing.
  static func framing(of head: HTTPRequestHead) throws(HTTPParseFailure) -> HTTPRequestHead.Framing
  {
    let encodings = head.headers.values(for: "Transfer-Encoding")
    let lengths = head.headers.values(for: "Content-Length")
    if !encodings.isEmpty {
      guard lengths.isEmpty else { throw .bad("both Transfer-Encoding and Content-Length are set") }
      let codings = encodings.flatMap {
        $0.split(separator: ",").map { $0.trimmingSpaces.lowercased() }
      }
      guard codings == ["chunked"] else {
        throw HTTPParseFailure(status: 501, message: "unsupported Transfer-Encoding (only chunked)")
      }
      return .chunked
    }
    guard !lengths.isEmpty else { return .none }
    let values = Set(lengths.flatMap { $0.split(separator: ",").map { $0.trimmingSpaces } })
    guard values.count == 1, let text = values.first, !text.isEmpty, text.utf8.count <= 18,
      text.utf8.allSatisfy({ (48...57).contains($0) }), let length = Int(text)
    else { throw .bad("invalid Content-Length") }
    return .length(length)
  }
}
