/// Turns the bytes of one connection into requests, one at a time, within `HTTPServerLimits`.
///
/// ```swift
/// var reader = HTTPRequestReader(limits: limits)
/// reader.append(bytes)
/// switch reader.next() { case .request(let request, let keepAlive): ...; case .needMore: read more }
/// ```
/// Pure: no sockets, so tests feed it bytes directly.
struct HTTPRequestReader {
  enum Step: Equatable {
    case needMore
    case request(HTTPRequest, keepAlive: Bool)
    case failure(HTTPParseFailure)
  }

  enum Phase {
    case head
    case fixedBody(remaining: Int)
    case chunkSize
    case chunkData(remaining: Int)
    case chunkEnd
    case trailers(bytes: Int)
  }

  let limits: HTTPServerLimits
  var buffer: [UInt8] = []
  var position = 0
  var phase = Phase.head
  var head: HTTPRequestHead?
  var body: [UInt8] = []
  /// Set once a head with `Expect: 100-continue` and a body is read; the connection answers it.
  var wantsContinue = false

  init(limits: HTTPServerLimits) {
    self.limits = limits
  }

  /// True when part of a request has arrived (the request timeout runs), false between requests.
  var hasPartialRequest: Bool {
    if case .head = phase { return position < buffer.count }
    return true
  }

  mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
    if position == buffer.count {
      buffer.removeAll(keepingCapacity: true)
      position = 0
    } else if position > 65_536 {
      buffer.removeFirst(position)
      position = 0
    }
    buffer.append(contentsOf: bytes)
  }

  /// Advances as far as the buffered bytes allow.
  mutating func next() -> Step {
    do {
      while true {
        switch phase {
        case .head:
          guard try readHead() else { return .needMore }
        case .fixedBody(let remaining):
          let take = min(remaining, buffer.count - position)
          body.append(contentsOf: buffer[position..<position + take])
          position += take
          if remaining - take > 0 {
            phase = .fixedBody(remaining: remaining - take)
            return .needMore
          }
          return finish()
        case .chunkSize, .chunkData, .chunkEnd, .trailers:
          guard try readChunked() else { return .needMore }
          return finish()
        }
      }
    } catch {
      return .failure(error)
    }
  }

  mutating func readHead() throws(HTTPParseFailure) -> Bool {
    let end = HTTPHeadParser.headEnd(in: buffer, from: position)
    try checkHeadSize(upTo: end ?? buffer.count)
    guard let end else { return false }
    let parsed = try HTTPHeadParser.parse(buffer, start: position, end: end, limits: limits)
    position = end
    head = parsed
    body = []
    switch try HTTPHeadParser.framing(of: parsed) {
    case .none:
      phase = .fixedBody(remaining: 0)
    case .length(let length):
      guard length <= limits.maxBodyBytes else {
        throw HTTPParseFailure(
          status: 413, message: "request body larger than \(limits.maxBodyBytes) bytes")
      }
      body.reserveCapacity(length)
      phase = .fixedBody(remaining: length)
      wantsContinue = length > 0 && parsed.expectsContinue
    case .chunked:
      phase = .chunkSize
      wantsContinue = parsed.expectsContinue
    }
    return true
  }

  /// The head's limits, checked on what has arrived so far (its terminating blank line aside), so
  /// the verdict is the same whether the bytes came at once or in pieces: the first line past
  /// `maxRequestLineBytes` is 414, the head past both limits together 431.
  func checkHeadSize(upTo limit: Int) throws(HTTPParseFailure) {
    var lineEnd = buffer[position..<limit].firstIndex(of: 0x0A) ?? limit
    if lineEnd > position, buffer[lineEnd - 1] == 0x0D { lineEnd -= 1 }
    if lineEnd - position > limits.maxRequestLineBytes {
      throw HTTPParseFailure(status: 414, message: "request line too long")
    }
    var headEnd = limit
    while headEnd > position, buffer[headEnd - 1] == 0x0A || buffer[headEnd - 1] == 0x0D {
      headEnd -= 1
    }
    if headEnd - position > limits.maxRequestLineBytes + limits.maxHeaderBytes {
      throw HTTPParseFailure(status: 431, message: "header fields too large")
    }
  }

  mutating func finish() -> Step {
    phase = .head
    wantsContinue = false
    guard let head else { return .failure(.bad("internal: no request head")) }
    self.head = nil
    let request = HTTPRequest(
      method: head.method, target: head.target, headers: head.headers, body: body)
    body = []
    return .request(request, keepAlive: head.keepAlive)
  }
}
