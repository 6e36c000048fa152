extension HTTPRequestReader {
  /// Decodes chunked transfer coding (RFC 9112 §7.1); true once the last chunk and trailers are read.
  mutating func readChunked() throws(HTTPParseFailure) -> Bool {
    while true {
      switch phase {
      case .chunkSize:
        guard let line = try takeLine(limit: 1024) else { return false }
        let sizeText = line.prefix { $0 != UInt8(ascii: ";") }
        let digits = sizeText.filter { $0 != 0x20 && $0 != 0x09 }
        // Hex digits only: `Int(_:radix:)` also takes a sign, and a chunk of "-5" bytes crashed
        // the gateway (found by the http-request fuzzer).
        guard !digits.isEmpty, digits.count <= 15,
          digits.allSatisfy({ Character(Unicode.Scalar($0)).isHexDigit }),
          let size = Int(String(decoding: digits, as: UTF8.self), radix: 16)
        else { throw .bad("invalid chunk size") }
        if size == 0 {
          phase = .trailers(bytes: 0)
        } else {
          guard body.count + size <= limits.maxBodyBytes else {
            throw HTTPParseFailure(
              status: 413, message: "request body larger than \(limits.maxBodyBytes) bytes")
          }
          phase = .chunkData(remaining: size)
        }
      case .chunkData(let remaining):
        let take = min(remaining, buffer.count - position)
        body.append(contentsOf: buffer[position..<position + take])
        position += take
        if remaining - take > 0 {
          phase = .chunkData(remaining: remaining - take)
          return false
        }
        phase = .chunkEnd
      case .chunkEnd:
        // Exactly CR LF (or a bare LF) must follow the data, whatever the bytes arrive in.
        let pending = buffer[position...]
        guard let first = pending.first else { return false }
        if first == 0x0A {
          position += 1
        } else if first == 0x0D, pending.count >= 2, pending[position + 1] == 0x0A {
          position += 2
        } else if first == 0x0D, pending.count == 1 {
          return false
        } else {
          throw .bad("chunk data longer than its size")
        }
        phase = .chunkSize
      case .trailers(let bytes):
        guard let line = try takeLine(limit: limits.maxHeaderBytes) else { return false }
        if line.isEmpty { return true }
        guard bytes + line.count <= limits.maxHeaderBytes else {
          throw HTTPParseFailure(status: 431, message: "trailer fields too large")
        }
        phase = .trailers(bytes: bytes + line.count)
      case .head, .fixedBody:
        return true
      }
    }
  }

  /// Takes one line (without CR LF) if complete; throws when a line grows past `limit` bytes.
  mutating func takeLine(limit: Int) throws(HTTPParseFailure) -> ArraySlice<UInt8>? {
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
