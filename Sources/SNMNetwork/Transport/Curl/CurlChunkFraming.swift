import SNMWire

/// The chunk framing of an HTTP/1.x answer that libcurl reads (https://), read by the decoder the
/// plain transport reads it with over http:// (SNMWire's ``HTTPDecoder``), from the body's bytes
/// as they came: every chunk size checked as it arrives, within the same limits and refused in
/// the same words. libcurl still takes the chunks apart (and undoes a gzip under them); what it
/// does not do is refuse a size past the body's limit (it waits for 2^63 bytes until the
/// request's timeout) or one of more than 16 digits in snm's words.
///
/// ```swift
/// var framing = CurlChunkFraming(limit: 256 << 20)
/// try framing.received(rawBytes)   // each piece as libcurl read it, framing and all
/// ```
/// The bytes a chunk's size says are data are skipped, never copied; only the lines between
/// them go to the decoder. Bytes after the last chunk and trailers are not looked at (libcurl
/// does not take them as the answer's).
struct CurlChunkFraming {
  private var decoder: HTTPDecoder
  /// The body's limit (the plain reader's: ``PlainHTTPReader/decoderLimit(maximumBodyBytes:saveTo:arriving:)``).
  let limit: Int
  /// The last chunk and the trailers have come.
  private(set) var ended = false

  init(limit: Int) {
    var limits = HTTPLimits.responses
    limits.maxBodyBytes = limit
    decoder = HTTPDecoder(chunkedBodyWithin: limits)
    self.limit = limit
  }

  /// More of the body, as it came.
  mutating func received(_ bytes: UnsafeBufferPointer<UInt8>) throws(PlainHTTPFailure) {
    var rest = bytes[...]
    while !rest.isEmpty, !ended {
      if let ahead = decoder.bodyAhead {
        let count = min(ahead, rest.count)
        decoder.skipBody(count)
        rest = rest.dropFirst(count)
        continue
      }
      // A chunk's line at a time, or a little more: what follows is skipped once the decoder
      // knows it is data.
      let piece = rest.prefix(PlainHTTPReader.framingBytes)
      decoder.append(UnsafeBufferPointer(rebasing: piece))
      rest = rest.dropFirst(piece.count)
      do {
        while let part = try decoder.next() {
          if case .end = part {
            ended = true
            break
          }
        }
      } catch {
        throw PlainHTTPFailure(refused: error, limit: limit)
      }
    }
  }
}
