#if canImport(Glibc)
  import Glibc
#endif

extension HTTPDecoder {
  /// Reads the next head when all of it has come: its part, or nil for more bytes. Interim
  /// answers (1xx) are skipped, but for a 101: handed out when ``upgrading``, refused when not.
  mutating func readHead() throws(HTTPParseError) -> Part? {
    while true {
      if reading == .responses { try checkStatusLinePrefix() }
      let end = headEnd()
      try checkHeadSize(upTo: end ?? buffer.count)
      guard let end else { return nil }
      let lines = headLines(end: end)
      // From the start line on: empty lines before a request line count against the whole
      // head's limits alone (``checkHeadSize(upTo:)``), not against the fields'.
      let headBytes = end - (lines.first?.startIndex ?? position)
      position = end
      scan.next = end
      bodyBytes = 0
      switch reading {
      case .requests:
        return .requestHead(try requestHead(lines, headBytes: headBytes))
      case .responses:
        let head = try responseHead(lines, headBytes: headBytes)
        if head.status == 101, !upgrading { throw .unaskedSwitch }
        if (100..<200).contains(head.status), head.status != 101 {
          phase = .head
          continue
        }
        return .responseHead(head)
      }
    }
  }

  /// Something other than HTTP (an SSH banner) says so in its first bytes, whatever they come in.
  func checkStatusLinePrefix() throws(HTTPParseError) {
    let prefix = Self.httpPrefix
    let seen = buffer[position..<min(buffer.count, position + prefix.count)]
    guard seen.elementsEqual(prefix.prefix(seen.count)) else {
      throw .notHTTP
    }
  }

  static let httpPrefix = Array("HTTP/".utf8)

  /// The index just after the empty line that ends the head in `buffer[position...]`, or nil.
  /// Empty lines before a request line are skipped, as RFC 9112 §2.2 allows. The search resumes
  /// where the last read's stopped (``HTTPLineScan``).
  mutating func headEnd() -> Int? {
    let start = resumeScan()
    // The closure reads these locals, not `self`: reading `self.buffer` there copied the whole
    // decoder at every line.
    let buffer = buffer
    var state = scan
    var found: Int?
    Self.forEachLineEnd(in: buffer, from: start, to: buffer.count) { index in
      if state.firstLineEnd == nil { state.firstLineEnd = index }
      var lineEnd = index
      if lineEnd > state.lineStart, buffer[lineEnd - 1] == 0x0D { lineEnd -= 1 }
      if lineEnd == state.lineStart {
        if state.sawContent {
          found = index + 1
          return false
        }
      } else {
        state.sawContent = true
      }
      state.lineStart = index + 1
      return true
    }
    state.next = found ?? buffer.count
    state.examined += state.next - start
    scan = state
    return found
  }

  /// Calls `body` with the index of each LF in `bytes[from..<to]`, in order, until it returns
  /// false; the LFs are found with `memchr` (a head is scanned for them on every read of it).
  static func forEachLineEnd(
    in bytes: [UInt8], from start: Int, to end: Int, _ body: (Int) -> Bool
  ) {
    bytes.withUnsafeBufferPointer { all in
      guard let base = all.baseAddress else { return }
      var index = start
      while index < end {
        guard let hit = memchr(base + index, 0x0A, end - index) else { return }
        let at = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
        guard body(at) else { return }
        index = at + 1
      }
    }
  }

  /// The limits, checked on what has arrived of the head so far (its terminating blank line
  /// aside), so the verdict is the same whether the bytes came at once or in pieces: the first
  /// line past `maxStartLineBytes` is 414, the head past both limits together 431, and so are its
  /// bytes with their line ends (400 when they are all empty lines before a request line). Worked out on
  /// what ``headEnd()`` found and on the bytes not checked before.
  mutating func checkHeadSize(upTo limit: Int) throws(HTTPParseError) {
    var lineEnd = min(scan.firstLineEnd ?? limit, limit)
    if lineEnd > position, buffer[lineEnd - 1] == 0x0D { lineEnd -= 1 }
    if lineEnd - position > limits.maxStartLineBytes { throw startLineTooLong() }
    let contentEnd = endWithoutLineEnds(upTo: limit)
    let headLimit = limits.maxStartLineBytes + limits.maxHeaderBytes
    if contentEnd - position > headLimit {
      throw .fieldsTooLarge
    }
    // Every byte kept counts, line ends included (past the four of the empty line that ends a
    // head): a request of empty lines only, or of lines of CRs, has no content to measure and was
    // kept whole until the request's timeout (hundreds of MiB a connection).
    if limit - position > headLimit + 4 {
      if reading == .requests, !scan.sawContent {
        throw .bad("too many empty lines before the request line")
      }
      throw .fieldsTooLarge
    }
  }

  func startLineTooLong() -> HTTPParseError {
    reading == .requests
      ? HTTPParseError(status: 414, message: "request line too long")
      : .statusLineTooLong
  }

  /// The lines of `buffer[position..<end]` without their line ends: the start line first (empty
  /// lines before a request line dropped), the fields, no final empty line.
  func headLines(end: Int) -> [ArraySlice<UInt8>] {
    let buffer = buffer  // read by the closure without copying the decoder (see `headEnd`)
    var lines: [ArraySlice<UInt8>] = []
    lines.reserveCapacity(16)  // a typical head without growing
    var lineStart = position
    Self.forEachLineEnd(in: buffer, from: position, to: end) { index in
      var lineEnd = index
      if lineEnd > lineStart, buffer[lineEnd - 1] == 0x0D { lineEnd -= 1 }
      if !(lines.isEmpty && lineEnd == lineStart) { lines.append(buffer[lineStart..<lineEnd]) }
      lineStart = index + 1
      return true
    }
    if lines.last?.isEmpty == true { lines.removeLast() }
    return lines
  }

  /// The start line: the first of `lines`, within its limit.
  func startLine(_ lines: [ArraySlice<UInt8>]) throws(HTTPParseError) -> ArraySlice<UInt8> {
    guard let line = lines.first else { throw .bad("empty request") }
    guard line.count <= limits.maxStartLineBytes else { throw startLineTooLong() }
    return line
  }

  /// The fields after the start line, within the count and size limits (`headBytes` counts the
  /// head from its start line: its line ends and the empty line that ends it, not the empty
  /// lines before a request line).
  func fields(_ lines: [ArraySlice<UInt8>], headBytes: Int) throws(HTTPParseError) -> HTTPHeaders {
    let fieldLines = lines.dropFirst()
    guard fieldLines.count <= limits.maxHeaderCount else { throw .tooManyFields }
    guard headBytes - (lines.first?.count ?? 0) <= limits.maxHeaderBytes else {
      throw .fieldsTooLarge
    }
    var headers = HTTPHeaders()
    headers.reserveCapacity(fieldLines.count)
    for line in fieldLines { try Self.addField(line, to: &headers) }
    return headers
  }

  /// One `name: value` line (RFC 9112 §5), as ``HTTPHeaders/Field/init(checkedHeaderLine:)``
  /// judges and cuts it, appended to `headers`.
  static func addField(_ line: ArraySlice<UInt8>, to headers: inout HTTPHeaders)
    throws(HTTPParseError)
  {
    let checked = try field(line, in: .header)
    headers.append(name: checked.name, value: checked.value)
  }

  /// The field of `line`, a line of `section`, as ``HTTPHeaders/Field/init(checkedHeaderLine:)``
  /// judges and cuts it.
  static func field(_ line: ArraySlice<UInt8>, in section: FieldSection) throws(HTTPParseError)
    -> HTTPHeaders.Field
  {
    let field = line.withUnsafeBufferPointer { bytes in
      Result { () throws(HTTPParseError) in
        try HTTPHeaders.Field(checkedLine: bytes, in: section)
      }
    }
    return try field.get()
  }

  /// Where a field line's token name ends at its colon, and its value without the spaces and
  /// tabs around it; nil when the first byte that is not a token's is not a colon.
  static func fieldParts(_ bytes: UnsafeBufferPointer<UInt8>) -> (colon: Int, low: Int, high: Int)?
  {
    var index = 0
    while index < bytes.count, isTokenByte(bytes[index]) { index += 1 }
    guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
    var low = index + 1
    var high = bytes.count
    while low < high, bytes[low] == 0x20 || bytes[low] == 0x09 { low += 1 }
    while high > low, bytes[high - 1] == 0x20 || bytes[high - 1] == 0x09 { high -= 1 }
    return (index, low, high)
  }

  /// The field section a line is in: a head's, or a chunked body's trailer. Its name is in the
  /// words of a refusal.
  enum FieldSection: String, CustomStringConvertible {
    case header, trailer
    var description: String { rawValue }
  }

  /// ``addField(_:to:)`` as the checks read one by one: the folding, the colon, the name, the
  /// value, then the field as ``HTTPHeaders/Field/init(headerLine:)`` cuts it. What it gives for
  /// a line whose name is empty or stops at a byte that is not a token's (its error).
  static func addFieldInParts(_ line: ArraySlice<UInt8>, to headers: inout HTTPHeaders)
    throws(HTTPParseError)
  {
    try addFieldInParts(line, to: &headers, in: .header)
  }

  /// ``addFieldInParts(_:to:)`` for a line of `section`, named in its refusals.
  static func addFieldInParts(
    _ line: ArraySlice<UInt8>, to headers: inout HTTPHeaders, in section: FieldSection
  ) throws(HTTPParseError) {
    guard let first = line.first, first != 0x20, first != 0x09 else {
      throw .bad("obsolete line folding in \(section) fields is not supported")
    }
    guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else {
      throw .withoutColon(section)
    }
    let name = line[line.startIndex..<colon]
    guard !name.isEmpty, name.allSatisfy(isTokenByte) else {
      throw .bad("invalid \(section) field name")
    }
    guard isFieldValue(line[(colon + 1)...]) else {
      throw .bad("invalid character in \(section) field value")
    }
    guard let field = HTTPHeaders.Field(headerLine: line) else {
      throw .withoutColon(section)
    }
    headers.append(name: field.name, value: field.value)
  }

  /// Whether every byte is a field value's: a tab, or neither a control character nor DEL.
  /// Tested eight bytes at a time (values are most of a head: a JWT is a few hundred bytes), a
  /// word with a tab, a control or DEL then byte by byte.
  static func isFieldValue(_ value: ArraySlice<UInt8>) -> Bool {
    value.withUnsafeBufferPointer { isFieldValue($0) }
  }

  static func isFieldValue(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    var index = 0
    while index + 8 <= bytes.count {
      let word = ByteWord.load(bytes, at: index)
      guard ByteWord.below(0x20, in: word) | ByteWord.equal(0x7F, in: word) == 0 else { break }
      index += 8
    }
    return bytes[index...].allSatisfy { $0 == 0x09 || $0 >= 0x20 && $0 != 0x7F }
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

  /// `HTTP/1.0` or `HTTP/1.1`: the minor version (read in place, no copy of the bytes).
  static func minorVersion(_ version: ArraySlice<UInt8>, as kind: String)
    throws(HTTPParseError) -> Int
  {
    let start = version.startIndex
    guard version.count == 8, version.starts(with: httpPrefix),
      version[start + 6] == UInt8(ascii: "."),
      (48...57).contains(version[start + 5]), (48...57).contains(version[start + 7])
    else { throw .malformedVersion(in: kind) }
    guard version[start + 5] == UInt8(ascii: "1") else {
      throw .unsupportedVersion
    }
    return Int(version[start + 7] - 48)
  }
}
