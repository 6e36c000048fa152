/// Turns the bytes of one HTTP/1.1 connection into messages, a part at a time: requests on a
/// server, answers on a client (as swift-nio's `HTTPDecoder` serves both), within
/// ``HTTPLimits`` checked before anything is set aside.
///
/// ```swift
/// var decoder = HTTPDecoder(reading: .responses, limits: .responses)
/// decoder.append(received)
/// while let part = try decoder.next() {
///   switch part {
///   case .responseHead(let head): ...
///   case .body(let bytes): body.append(contentsOf: bytes)
///   case .end: ...                   // the message is complete; the next one may follow
///   case .requestHead: ...
///   }
/// }
/// // nil: more bytes are needed; at the end of the stream ask `finish()`.
/// ```
/// Pure: no sockets, so tests and fuzzers feed it bytes however they like; the parts are the same
/// whatever pieces the bytes come in (a body may come in more `.body` parts). Interim answers
/// (1xx) are skipped. Throws ``HTTPParseError``; after one, the connection is done.
public struct HTTPDecoder: Sendable {
  /// What the connection carries towards the reader.
  public enum Reading: Sendable, Hashable {
    /// A server reading requests.
    case requests
    /// A client reading answers.
    case responses
  }

  /// One part of a message.
  public enum Part: Sendable, Hashable {
    case requestHead(HTTPRequestHead)
    case responseHead(HTTPResponseHead)
    /// Body bytes (chunked coding removed), valid until the decoder is used again.
    case body(ArraySlice<UInt8>)
    /// The message is complete.
    case end
  }

  /// Where the stream stopped, for ``finish()``.
  public enum Ending: Sendable, Hashable {
    /// Between messages: nothing was pending.
    case idle
    /// A body framed by the end of the connection is complete: its message ends here.
    case complete
    /// The head was cut off; `receivedAny` is false when not one byte of it came (a kept
    /// connection the peer had closed: the request may be sent again).
    case inHead(receivedAny: Bool)
    /// The body was cut off with `remaining` bytes announced and not sent (nil: chunked).
    case inBody(remaining: Int?)
  }

  enum Phase: Sendable {
    case head
    case fixedBody(remaining: Int)
    case chunkSize
    case chunkData(remaining: Int)
    case chunkEnd
    case trailers(bytes: Int, fields: Int)
    case untilClose
  }

  public let reading: Reading
  public let limits: HTTPLimits
  var buffer: [UInt8] = []
  var position = 0
  var phase = Phase.head
  /// How far the search for the end of the line or head under way got.
  var scan = HTTPLineScan()
  /// Body bytes of the message so far, counted against `limits.maxBodyBytes`.
  var bodyBytes = 0
  /// Set once a request head with `Expect: 100-continue` and a body is read; the server answers
  /// it (and clears it).
  public var wantsContinue = false
  /// The next answer is to a HEAD request: it has no body whatever its head says.
  public var answersHEAD = false
  /// The bytes held a secret (a session's tokens): a buffer the decoder lets go of, or empties to
  /// fill again, is zeroed first (``WipedMemory``); ``wipe()`` zeroes the one it holds.
  public var wipesBuffers = false

  /// A client that asked to switch protocols (a WebSocket upgrade): a `101` answer is handed
  /// out, not skipped as interim, and what follows its head is ``unread``, no longer HTTP.
  public var upgrading = false

  public init(reading: Reading, limits: HTTPLimits) {
    self.reading = reading
    self.limits = limits
  }

  /// A client's decoder for the chunked body of an answer whose head was read elsewhere (libcurl
  /// reads an https:// answer's head): it takes the body's bytes as they came, chunk framing
  /// and all, and ends (`.end`) after the last chunk and the trailers.
  public init(chunkedBodyWithin limits: HTTPLimits) {
    self.init(reading: .responses, limits: limits)
    phase = .chunkSize
  }

  /// True when part of a message has arrived and its end has not (a request's timeout runs),
  /// false between messages.
  public var isMidMessage: Bool {
    if case .head = phase { return position < buffer.count }
    return true
  }

  /// Adds bytes received.
  public mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
    compact()
    buffer.append(contentsOf: bytes)
  }

  /// Adds bytes received.
  public mutating func append(contentsOf bytes: some Collection<UInt8>) {
    compact()
    buffer.append(contentsOf: bytes)
  }

  /// Adds bytes received, read into an array of their own: when the decoder holds nothing
  /// unread (a read after every part was taken, the usual case) it keeps that array as its
  /// buffer instead of copying the bytes into its own.
  public mutating func append(taking bytes: [UInt8]) {
    guard position == buffer.count else { return append(contentsOf: bytes) }
    scan.shift(by: position)
    if wipesBuffers { WipedMemory.zero(&buffer) }
    buffer = bytes
    position = 0
  }

  /// Zeroes the bytes it holds and lets them go (``wipesBuffers``).
  public mutating func wipe() {
    WipedMemory.zero(&buffer)
    position = 0
  }

  private mutating func compact() {
    if position == buffer.count {
      scan.shift(by: position)
      if wipesBuffers { buffer.withUnsafeMutableBytes { WipedMemory.zero($0) } }
      buffer.removeAll(keepingCapacity: true)
      position = 0
    } else if position > 65_536 {
      scan.shift(by: position)
      buffer.removeFirst(position)
      position = 0
    }
  }

  /// The next part the bytes so far allow, or nil when more are needed.
  ///
  /// - Throws: ``HTTPParseError`` for bytes that are not a message within the limits.
  public mutating func next() throws(HTTPParseError) -> Part? {
    while true {
      switch phase {
      case .head:
        return try readHead()
      case .fixedBody(let remaining):
        if remaining == 0 { return end() }
        let take = min(remaining, buffer.count - position)
        guard take > 0 else { return nil }
        phase = .fixedBody(remaining: remaining - take)
        return takeBody(take)
      case .untilClose:
        let take = buffer.count - position
        guard take > 0 else { return nil }
        guard bodyBytes + take <= limits.maxBodyBytes else { throw bodyTooLarge() }
        bodyBytes += take
        return takeBody(take)
      case .chunkSize, .chunkData, .chunkEnd, .trailers:
        return try nextChunked()
      }
    }
  }

  /// What the end of the stream means for the message under way. A body that ends with the
  /// connection is complete then (and the decoder is between messages again).
  public mutating func finish() -> Ending {
    switch phase {
    case .head:
      return position < buffer.count ? .inHead(receivedAny: true) : .idle
    case .untilClose:
      phase = .head
      return .complete
    case .fixedBody(let remaining):
      return .inBody(remaining: remaining)
    case .chunkSize, .chunkData, .chunkEnd, .trailers:
      return .inBody(remaining: nil)
    }
  }

  /// The bytes received and not yet decoded.
  public var unread: ArraySlice<UInt8> { buffer[position...] }

  /// How many of the stream's next bytes are the body under way, when the decoder holds no byte
  /// unread: what its length or its chunk has left, or for a body that ends with the connection
  /// what its limit has left. A reader may read them straight to where the body goes, past the
  /// decoder, and say so with ``skipBody(_:)``; nil when the next bytes are a head or framing.
  public var bodyAhead: Int? {
    guard position == buffer.count else { return nil }
    switch phase {
    case .fixedBody(let remaining) where remaining > 0: return remaining
    case .chunkData(let remaining): return remaining
    case .untilClose where bodyBytes < limits.maxBodyBytes: return limits.maxBodyBytes - bodyBytes
    default: return nil
    }
  }

  /// `count` bytes of the body (at most ``bodyAhead``) were read past the decoder: it goes on as
  /// if it had handed them out as `.body`.
  public mutating func skipBody(_ count: Int) {
    precondition(count >= 0 && count <= bodyAhead ?? 0, "more than the body has ahead")
    switch phase {
    case .fixedBody(let remaining): phase = .fixedBody(remaining: remaining - count)
    case .chunkData(let remaining):
      phase = remaining > count ? .chunkData(remaining: remaining - count) : .chunkEnd
    case .untilClose: bodyBytes += count
    default: break
    }
  }

  mutating func takeBody(_ count: Int) -> Part {
    let bytes = buffer[position..<position + count]
    position += count
    return .body(bytes)
  }

  mutating func end() -> Part {
    phase = .head
    wantsContinue = false
    answersHEAD = false
    bodyBytes = 0
    return .end
  }

  func bodyTooLarge() -> HTTPParseError {
    let noun = reading == .requests ? "request" : "response"
    return HTTPParseError(
      status: 413, message: "\(noun) body larger than \(limits.maxBodyBytes) bytes")
  }
}
