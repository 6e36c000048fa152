extension HTTPDecoder {
  /// Decodes chunked transfer coding (RFC 9112 §7.1): the next run of data, `.end` once the last
  /// chunk and the trailers are read, or nil for more bytes.
  mutating func nextChunked() throws(HTTPParseError) -> Part? {
    while true {
      switch phase {
      case .chunkSize:
        guard
          let line = try takeLine(
            limit: HTTPLimits.maxChunkLineBytes, tooLong: .bad("malformed chunked body"))
        else { return nil }
        // Checked before a byte of it is taken: a server announcing 2^63 bytes gets no further.
        let size = try chunkSize(line)
        if size == 0 {
          phase = .trailers(bytes: 0, fields: 0)
        } else {
          bodyBytes += size
          phase = .chunkData(remaining: size)
        }
      case .chunkData(let remaining):
        let take = min(remaining, buffer.count - position)
        guard take > 0 else { return nil }
        phase = remaining - take > 0 ? .chunkData(remaining: remaining - take) : .chunkEnd
        return takeBody(take)
      case .chunkEnd:
        // Exactly CR LF (or a bare LF) must follow the data, whatever the bytes arrive in.
        let pending = buffer[position...]
        guard let first = pending.first else { return nil }
        if first == 0x0A {
          position += 1
        } else if first == 0x0D, pending.count >= 2, pending[position + 1] == 0x0A {
          position += 2
        } else if first == 0x0D, pending.count == 1 {
          return nil
        } else {
          throw .bad("chunk data longer than its size")
        }
        phase = .chunkSize
      case .trailers(let bytes, let fields):
        let start = position
        let tooLong = HTTPParseError(status: 431, message: "trailer field line too long")
        guard let line = try takeLine(limit: HTTPLimits.maxTrailerLineBytes, tooLong: tooLong)
        else { return nil }
        if line.isEmpty { return end() }
        // A trailer section is field lines (RFC 9112 §7.1.2), held to a head's field limits (its
        // bytes with their line ends, its count) and judged as a head's field line is (a bare CR
        // (§2.2) or another control character, no colon, an empty name or a space in it, folding).
        let taken = bytes + position - start
        guard taken <= limits.maxHeaderBytes else {
          throw HTTPParseError(status: 431, message: "trailer fields too large")
        }
        guard fields < limits.maxHeaderCount else {
          throw HTTPParseError(status: 431, message: "too many trailer fields")
        }
        _ = try Self.field(line, in: .trailer)
        phase = .trailers(bytes: taken, fields: fields + 1)
      case .head, .fixedBody, .untilClose:
        return nil
      }
    }
  }

  /// The size a chunk line announces (RFC 9112 §7.1: `1*HEXDIG`, then spaces or tabs before
  /// `;` and its extensions): 1-16 hex digits (leading zeros allowed; curl and Go refuse more
  /// digits too) for a size that fits 63 bits, nothing else (a sign: `Int(_:radix:)` took one,
  /// and a chunk of "-5" bytes crashed the gateway; a space between digits). A size past what
  /// the body may still hold is refused as too large before anything is set aside for it.
  func chunkSize(_ line: ArraySlice<UInt8>) throws(HTTPParseError) -> Int {
    var digits = line.prefix { $0 != UInt8(ascii: ";") }
    while let last = digits.last, last == 0x20 || last == 0x09 { digits.removeLast() }
    var size: UInt64 = 0
    for byte in digits {
      guard let digit = HexDigit.value(byte) else { throw .bad("invalid chunk size") }
      size = size &<< 4 | UInt64(digit)
    }
    guard !digits.isEmpty else { throw .bad("invalid chunk size") }
    guard digits.count <= 16 else { throw .bad("invalid chunk size: more than 16 hex digits") }
    guard size <= UInt64(Int.max) else { throw .bad("invalid chunk size: more than 63 bits") }
    guard Int(size) <= limits.maxBodyBytes - bodyBytes else { throw bodyTooLarge() }
    return Int(size)
  }

  /// Takes one line (without CR LF) if complete; throws `tooLong` when a line grows past `limit`
  /// bytes (and a CR that may end it), whatever pieces it came in. The search for its LF resumes
  /// where the last read's stopped.
  mutating func takeLine(limit: Int, tooLong: HTTPParseError) throws(HTTPParseError)
    -> ArraySlice<UInt8>?
  {
    let start = resumeScan()
    guard let newline = buffer[start...].firstIndex(of: 0x0A) else {
      scan.examined += buffer.count - start
      scan.next = buffer.count
      if buffer.count - position > limit + 1 { throw tooLong }
      return nil
    }
    scan.examined += newline + 1 - start
    var end = newline
    if end > position, buffer[end - 1] == 0x0D { end -= 1 }
    let line = buffer[position..<end]
    guard line.count <= limit else { throw tooLong }
    position = newline + 1
    scan.next = position
    return line
  }
}
