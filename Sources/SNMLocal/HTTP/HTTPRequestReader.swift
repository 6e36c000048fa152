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
    guard let end = HTTPHeadParser.headEnd(in: buffer, from: position) else {
      let pending = buffer.count - position
      if !buffer[position...].contains(0x0A), pending > limits.maxRequestLineBytes {
        throw HTTPParseFailure(status: 414, message: "request line too long")
      }
      if pending > limits.maxRequestLineBytes + limits.maxHeaderBytes {
        throw HTTPParseFailure(status: 431, message: "header fields too large")
      }
      return false
    }
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
