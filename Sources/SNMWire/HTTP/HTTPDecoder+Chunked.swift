extension HTTPDecoder {
  /// Decodes chunked transfer coding (RFC 9112 §7.1): the next run of data, `.end` once the last
  /// chunk and the trailers are read, or nil for more bytes.
  mutating func nextChunked() throws(HTTPParseError) -> Part? {
    while true {
      switch phase {
      case .chunkSize:
        guard let line = try takeLine(limit: HTTPLimits.maxChunkLineBytes) else { return nil }
        // Checked before a byte of it is taken: a server announcing 2^63 bytes gets no further.
        let size = try chunkSize(line)
        if size == 0 {
          phase = .trailers(bytes: 0)
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
      case .trailers(let bytes):
        guard let line = try takeLine(limit: limits.maxHeaderBytes) else { return nil }
        if line.isEmpty { return end() }
        guard bytes + line.count <= limits.maxHeaderBytes else {
          throw HTTPParseError(status: 431, message: "trailer fields too large")
        }
        phase = .trailers(bytes: bytes + line.count)
      case .head, .fixedBody, .untilClose:
        return nil
      }
    }
  }

  /// The size a chunk line announces (hex digits only: `Int(_:radix:)` also takes a sign, and a
  /// chunk of "-5" bytes crashed the gateway), then extensions after `;`. A size past what the
  /// body may still hold is refused as too large, however many digits it has, before anything is
  /// set aside for it.
  func chunkSize(_ line: ArraySlice<UInt8>) throws(HTTPParseError) -> Int {
    let sizeText = line.prefix { $0 != UInt8(ascii: ";") }
    let digits = sizeText.filter { $0 != 0x20 && $0 != 0x09 }
    guard !digits.isEmpty else { throw .bad("invalid chunk size") }
    var size = 0
    var tooLarge = false
    for byte in digits {
      guard let digit = HexDigit.value(byte) else { throw .bad("invalid chunk size") }
      if size > (limits.maxBodyBytes - bodyBytes) >> 4 { tooLarge = true }
      if !tooLarge { size = size << 4 | Int(digit) }
    }
    guard !tooLarge, bodyBytes + size <= limits.maxBodyBytes else { throw bodyTooLarge() }
    return size
  }

  /// Takes one line (without CR LF) if complete; throws when a line grows past `limit` bytes.
  mutating func takeLine(limit: Int) throws(HTTPParseError) -> ArraySlice<UInt8>? {
    guard let newline = buffer[position...].firstIndex(of: 0x0A) else {
      if buffer.count - position > limit { throw .bad("malformed chunked body") }
      return nil
    }
    var end = newline
    if end > position, buffer[end - 1] == 0x0D { end -= 1 }
    let line = buffer[position..<end]
    guard line.count <= limit else { throw .bad("malformed chunked body") }
    position = newline + 1
    return line
  }
}
