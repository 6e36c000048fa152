import SNMWire

/// Turns the bytes of one connection into whole requests, one at a time, through SNMWire's
/// ``HTTPDecoder`` (the same framing the client reads answers with) within `HTTPLimits`.
///
/// ```swift
/// var reader = HTTPRequestReader(limits: .requests)
/// reader.append(bytes)
/// switch reader.next() { case .request(let request, let keepAlive): ...; case .needMore: read more }
/// ```
/// Pure: no sockets, so tests feed it bytes directly.
struct HTTPRequestReader {
  enum Step: Equatable {
    case needMore
    case request(HTTPRequest, keepAlive: Bool)
    case failure(HTTPParseError)
  }

  var decoder: HTTPDecoder
  var head: HTTPRequestHead?
  var body: [UInt8] = []

  init(limits: HTTPLimits) {
    decoder = HTTPDecoder(reading: .requests, limits: limits)
  }

  /// Set once a head with `Expect: 100-continue` and a body is read; the connection answers it.
  var wantsContinue: Bool {
    get { decoder.wantsContinue }
    set { decoder.wantsContinue = newValue }
  }

  /// True when part of a request has arrived (the request timeout runs), false between requests.
  var hasPartialRequest: Bool { decoder.isMidMessage }

  mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
    decoder.append(bytes)
  }

  /// Advances as far as the buffered bytes allow.
  mutating func next() -> Step {
    do {
      while let part = try decoder.next() {
        switch part {
        case .requestHead(let started):
          head = started
          body = []
          if case .length(let length) = started.framing { body.reserveCapacity(length) }
        case .body(let bytes):
          body.append(contentsOf: bytes)
        case .end:
          guard let head else { return .failure(.bad("internal: no request head")) }
          self.head = nil
          let request = HTTPRequest(
            method: head.method, target: head.target, headers: head.headers, body: body)
          body = []
          return .request(request, keepAlive: head.keepAlive)
        case .responseHead:
          return .failure(.bad("internal: an answer where a request was expected"))
        }
      }
      return .needMore
    } catch {
      return .failure(error)
    }
  }
}
