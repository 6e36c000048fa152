extension HTTPDecoder {
  /// `METHOD TARGET HTTP/1.x`, the fields, and how the body is framed (RFC 9112 §3, §6.3).
  mutating func requestHead(_ lines: [ArraySlice<UInt8>], headBytes: Int) throws(HTTPParseError)
    -> HTTPRequestHead
  {
    let line = try startLine(lines)
    // Exactly three parts between two single spaces (found by index: a split into an array
    // of parts cost more than the rest of the line's checks).
    guard let firstSpace = line.firstIndex(of: 0x20),
      let secondSpace = line[(firstSpace + 1)...].firstIndex(of: 0x20),
      !line[(secondSpace + 1)...].contains(0x20)
    else { throw .bad("malformed request line: expected 'METHOD TARGET HTTP/1.1'") }
    let method = line[..<firstSpace]
    let requestTarget = line[(firstSpace + 1)..<secondSpace]
    guard !method.isEmpty, !requestTarget.isEmpty else {
      throw .bad("malformed request line: expected 'METHOD TARGET HTTP/1.1'")
    }
    guard method.allSatisfy(Self.isTokenByte) else {
      throw .bad("invalid method in request line")
    }
    guard requestTarget.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
      throw .bad("invalid character in request target")
    }
    let minor = try Self.minorVersion(line[(secondSpace + 1)...], as: "request line")
    var target = String(decoding: requestTarget, as: UTF8.self)
    // Its bytes are visible ASCII (checked above), so its first character is its first byte.
    if requestTarget.first != UInt8(ascii: "/") {
      guard let originForm = Self.originForm(of: target) else {
        throw .bad("request target must start with '/'")
      }
      target = originForm
    }
    var head = HTTPRequestHead(
      method: String(decoding: method, as: UTF8.self), target: target, minorVersion: minor,
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

  /// The status a status line gives (`HTTP/1.1 200 OK`, `HTTP/2 200`), the line cut at its first
  /// two spaces (`VERSION SP STATUS [SP REASON]`, as a split into 3 would): the three digits
  /// between the first space and the next (or the line's end), 100 or more; nil for any other
  /// line. The one reading of a status for both schemes: this decoder's over http:// and libcurl's
  /// head lines over https://.
  public static func status(ofStatusLine line: UnsafeBufferPointer<UInt8>) -> Int? {
    guard let space = line.firstIndex(of: 0x20) else { return nil }
    var status = 0
    var index = space + 1
    while index < line.count, line[index] != 0x20 {
      guard (48...57).contains(line[index]), index - space <= 3 else { return nil }
      status = status * 10 + Int(line[index] - 48)
      index += 1
    }
    return index - space == 4 && status >= 100 ? status : nil
  }

  /// The minor version of a status line's `HTTP/1.0` or `HTTP/1.1` (what comes before its first
  /// space), or the decoder's refusal of any other version: for libcurl's head lines over
  /// https://, read as ``responseHead(_:headBytes:)`` reads them over http://.
  public static func minorVersion(ofStatusLine line: UnsafeBufferPointer<UInt8>)
    throws(HTTPParseError) -> Int
  {
    let version = UnsafeBufferPointer(rebasing: line[..<(line.firstIndex(of: 0x20) ?? line.count)])
    return try statusLineMinorVersion(Array(version)[...])
  }

  /// An answer's version: `HTTP/1.0` or `HTTP/1.1`. `HTTP/2` and `HTTP/3` (those protocols' names,
  /// as libcurl writes their status lines) are versions snm does not read over HTTP/1.1, and so is
  /// an `HTTP/1.x` past 1.1: RFC 9110 §2.5 lets a 1.1 recipient read one as 1.1 (a SHOULD), but
  /// no such version exists and libcurl, which reads every https:// answer, refuses it before
  /// snm sees the line ("Unsupported HTTP version (1.5)"), so both schemes refuse it, alike.
  /// (A request's `HTTP/1.x` is read as 1.1, as that section asks of a server.)
  /// A version that cannot be read (`HTTP/1.10`, `HTTP/1`) is a bad status line: libcurl tells
  /// it from a line without a status (`HTTP/1.1`) no better, and both schemes say one thing.
  static func statusLineMinorVersion(_ version: ArraySlice<UInt8>) throws(HTTPParseError) -> Int {
    if version.count == 6, version.starts(with: httpPrefix),
      version.last == UInt8(ascii: "2") || version.last == UInt8(ascii: "3")
    {
      throw .unsupportedVersion
    }
    let minor: Int
    do {
      minor = try minorVersion(version, as: "status line")
    } catch {
      throw error == .unsupportedVersion ? error : .badStatusLine
    }
    guard minor <= 1 else { throw .unsupportedVersion }
    return minor
  }

  /// The refusal of a status line without a status (``status(ofStatusLine:)``): "only HTTP/1.0
  /// and HTTP/1.1 are supported" when libcurl, which reads every https:// answer, would read a
  /// version it does not take before it looked at the rest (so both schemes name the same of
  /// two faults), else a bad status line. libcurl 7.88 (`lib/http.c`) reads
  /// `HTTP/%1d.%1d%c%3d%c`: a digit, `.`, a digit, a space and a status (up to three
  /// characters after any blanks, a sign among them), 100 or more and no fourth digit, and
  /// refuses a version other than 1.0, 1.1 and 2.0 (`HTTP/1.5  200`); a line `HTTP/3` and a
  /// number it refuses for its version whatever the number (`HTTP/3 099`). `HTTP/1.5 099` it
  /// refuses for its status, `HTTP/1.1` and `HTTP/1.10 200` as no status line it can read.
  static func statusLineRefusal(_ line: ArraySlice<UInt8>) -> HTTPParseError {
    guard line.starts(with: httpPrefix) else { return .badStatusLine }
    let rest = Array(line.dropFirst(httpPrefix.count))
    func isDigit(_ index: Int) -> Bool { index < rest.count && (48...57).contains(rest[index]) }
    func blanksSkipped(from start: Int) -> Int {
      var index = start
      while index < rest.count, [0x20, 0x09, 0x0A, 0x0B, 0x0C, 0x0D].contains(rest[index]) {
        index += 1
      }
      return index
    }
    guard isDigit(0) else { return .badStatusLine }
    guard rest.count > 2, rest[1] == UInt8(ascii: "."), isDigit(2) else {
      // `HTTP/2` or `HTTP/3`, any blanks, a number: 2 libcurl takes (its status is checked as
      // an HTTP/2 answer's), 3 it refuses.
      var index = blanksSkipped(from: 1)
      if index < rest.count, rest[index] == UInt8(ascii: "+") || rest[index] == UInt8(ascii: "-") {
        index += 1
      }
      return rest[0] == UInt8(ascii: "3") && isDigit(index) ? .unsupportedVersion : .badStatusLine
    }
    guard rest.count > 3, rest[3] == 0x20 else { return .badStatusLine }
    var index = blanksSkipped(from: 4)
    var width = 0
    var negative = false
    if index < rest.count, rest[index] == UInt8(ascii: "+") || rest[index] == UInt8(ascii: "-") {
      negative = rest[index] == UInt8(ascii: "-")
      index += 1
      width = 1
    }
    var status = 0
    var digits = 0
    while width < 3, isDigit(index) {
      status = status * 10 + Int(rest[index] - 48)
      index += 1
      width += 1
      digits += 1
    }
    guard digits > 0, !negative, status >= 100, !isDigit(index) else { return .badStatusLine }
    let version = Int(rest[0] - 48) * 10 + Int(rest[2] - 48)
    return [10, 11, 20].contains(version) ? .badStatusLine : .unsupportedVersion
  }

  /// `HTTP/1.x STATUS [REASON]`, the fields, and how the body is framed: none for an answer to
  /// HEAD and for 1xx, 204 and 304, whatever the fields say.
  mutating func responseHead(_ lines: [ArraySlice<UInt8>], headBytes: Int) throws(HTTPParseError)
    -> HTTPResponseHead
  {
    let line = try startLine(lines)
    guard let status = line.withUnsafeBufferPointer({ Self.status(ofStatusLine: $0) }),
      let space = line.firstIndex(of: 0x20)
    else { throw Self.statusLineRefusal(line) }
    let codeEnd = space + 4  // past the three digits: a space or the line's end
    let minor = try Self.statusLineMinorVersion(line[..<space])
    let reason =
      codeEnd == line.endIndex ? "" : String(decoding: line[(codeEnd + 1)...], as: UTF8.self)
    var head = HTTPResponseHead(
      status: status, reason: reason, minorVersion: minor,
      headers: try fields(lines, headBytes: headBytes))
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
    switch Self.plainFraming(headers) {
    case .length(let length):
      guard length <= limits.maxBodyBytes else { throw bodyTooLarge() }
      return .length(length)
    case .neither:
      return reading == .requests ? .none : .untilClose
    case .other:
      break
    }
    let lengths = headers.values(for: "Content-Length")
    if headers.contains("Transfer-Encoding") {
      guard lengths.isEmpty else { throw .bad("both Transfer-Encoding and Content-Length are set") }
      guard headers.transferCodings == ["chunked"] else {
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

  /// What ``plainFraming(_:)`` found.
  enum PlainFraming: Equatable {
    /// Neither `Content-Length` nor `Transfer-Encoding`.
    case neither
    /// One `Content-Length` of 1-18 digits and no `Transfer-Encoding`.
    case length(Int)
    /// Anything else: `framing` decides, and refuses what is wrong.
    case other
  }

  /// The framing of the common heads, none or one plain `Content-Length`, found in one look at
  /// the fields, without the arrays and the set `framing` builds for the others.
  static func plainFraming(_ headers: HTTPHeaders) -> PlainFraming {
    var length: Int?
    for field in headers.fields {
      if HTTPHeaders.sameName(field.name, "Transfer-Encoding") { return .other }
      guard HTTPHeaders.sameName(field.name, "Content-Length") else { continue }
      guard length == nil else { return .other }
      let digits = field.value.utf8
      guard !digits.isEmpty, digits.count <= 18, digits.allSatisfy({ (48...57).contains($0) })
      else { return .other }
      length = digits.reduce(0) { $0 * 10 + Int($1 - 48) }
    }
    return length.map { .length($0) } ?? .neither
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
