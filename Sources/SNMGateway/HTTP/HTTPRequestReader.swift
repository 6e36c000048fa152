import SNMWire

/// Turns the bytes of one connection into whole requests, one at a time, through SNMWire's
/// ``HTTPDecoder`` (the same framing the client reads answers with) within `HTTPLimits`.
///
/// ```swift
/// var reader = HTTPRequestReader(limits: .requests)
/// reader.append(bytes)
/// switch reader.next() { case .request(let request, let keepAlive): ...; case .needMore: read more }
/// ```
/// With a `planner`, each request's head is shown to it before the body is read: a body it
/// streams goes to its sink as it arrives (`.streamed` at the end), and one it answers at once
/// is never read (`.answered`). Buffered bodies are held to `bufferLimit` bytes (413 past it);
/// the decoder's own limit bounds streamed ones. Pure: no sockets, so tests feed it bytes directly.
///
/// Unchecked Sendable: a reader (and a step, with its sink) belongs to one connection, which the
/// event loop hands whole to one worker and takes back (`HTTPConnection.reader`, under a lock).
struct HTTPRequestReader: @unchecked Sendable {
  enum Step: Equatable, @unchecked Sendable {
    case needMore
    case request(HTTPRequest, keepAlive: Bool)
    /// A streamed body ended: `sink` answers the request.
    case streamed(HTTPRequest, sink: any HTTPBodySink, keepAlive: Bool)
    /// The planner (or the sink, mid-body) answered without the rest of the body: send this and
    /// close the connection.
    case answered(HTTPResponse)
    case failure(HTTPParseError)
    /// A head with a body arrived and the planner was not asked yet (`next(deferringPlans:)`):
    /// call `next()` where the planner may block (it may ask the database).
    case planning
    /// A streamed body's bytes were held for its sink (`next(deferringPlans:)`): `heldLimit` of
    /// them, or the body ended. Call `next()` where the sink may block (it writes files).
    case flushing

    static func == (lhs: Step, rhs: Step) -> Bool {
      switch (lhs, rhs) {
      case (.needMore, .needMore): true
      case (.request(let a, let x), .request(let b, let y)): a == b && x == y
      case (.streamed(let a, let s, let x), .streamed(let b, let t, let y)):
        a == b && s === t && x == y
      case (.answered(let a), .answered(let b)): a == b
      case (.failure(let a), .failure(let b)): a == b
      case (.planning, .planning): true
      case (.flushing, .flushing): true
      default: false
      }
    }
  }

  var decoder: HTTPDecoder
  var head: HTTPRequestHead?
  /// The request of `head` as the planner saw it, given its body at the end (made once).
  var request: HTTPRequest?
  var body: [UInt8] = []
  /// The most a buffered body may hold.
  let bufferLimit: Int
  let planner: (@Sendable (HTTPRequest) -> HTTPBodyPlan)?
  /// The sink of the body being streamed.
  var sink: (any HTTPBodySink)?
  /// A head whose body plan is still to be asked for (after `.planning`).
  var unplanned: HTTPRequestHead?
  /// A streamed body's bytes decoded where its sink may not run (the event loop), for `next()`
  /// to give it; and whether the body ended after them.
  var held: [UInt8] = []
  var heldEnd = false
  /// Bytes appended since the reader was made (the server's minimum body rate counts them).
  var arrived = 0
  /// Requests whose end was read (a connection's streamed body goes on while this stays).
  var ended = 0

  /// The most body bytes held for a sink before `.flushing`.
  static let heldLimit = 256 * 1024

  /// - Parameters:
  ///   - limits: the decoder's limits; `maxBodyBytes` bounds streamed bodies.
  ///   - bufferLimit: the most a buffered body may hold (`limits.maxBodyBytes` when nil).
  init(
    limits: HTTPLimits, bufferLimit: Int? = nil,
    planner: (@Sendable (HTTPRequest) -> HTTPBodyPlan)? = nil
  ) {
    decoder = HTTPDecoder(reading: .requests, limits: limits)
    self.bufferLimit = bufferLimit ?? limits.maxBodyBytes
    self.planner = planner
  }

  /// Set once a head with `Expect: 100-continue` and a body is read; the connection answers it.
  var wantsContinue: Bool {
    get { decoder.wantsContinue }
    set { decoder.wantsContinue = newValue }
  }

  /// True when part of a request has arrived (the request timeout runs), false between requests.
  var hasPartialRequest: Bool { decoder.isMidMessage }

  /// True while part of a request's head has arrived and not all of it.
  var isReadingHead: Bool { decoder.isMidMessage && head == nil && unplanned == nil && sink == nil }

  /// True while a body streams into a sink (its rate is bounded, not its length).
  var isStreaming: Bool { sink != nil }

  mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
    arrived += bytes.count
    decoder.append(bytes)
  }

  /// The connection ended before the body did: the sink (if any) drops what it had.
  mutating func abandon() {
    sink?.abandon()
    sink = nil
    held = []
    heldEnd = false
  }

  /// Advances as far as the buffered bytes allow. With `deferringPlans` (the event loop, which
  /// must not block), a head with a body stops at `.planning` before the planner is asked, and a
  /// streamed body's bytes are held, not given to the sink (`.flushing` when `heldLimit` are, or
  /// the body ended).
  mutating func next(deferringPlans: Bool = false) -> Step {
    do {
      if let started = unplanned {
        unplanned = nil
        if let step = plan(started) { return step }
      }
      if !deferringPlans, let step = release() { return step }
      while let part = try decoder.next() {
        switch part {
        case .requestHead(let started):
          head = started
          request = nil
          body = []
          if deferringPlans, planner != nil, Self.hasBody(started) {
            unplanned = started
            return .planning
          }
          if let step = plan(started) { return step }
        case .body(let bytes):
          if sink != nil && deferringPlans {
            held.append(contentsOf: bytes)
            if held.count >= Self.heldLimit { return .flushing }
          } else if let sink {
            let stop = bytes.withUnsafeBytes { sink.receive($0) }
            if let stop {
              self.sink = nil
              head = nil
              return .answered(stop)
            }
          } else {
            guard body.count + bytes.count <= bufferLimit else {
              head = nil
              return .failure(tooLarge())
            }
            body.append(contentsOf: bytes)
          }
        case .end:
          if sink != nil && deferringPlans {
            heldEnd = true
            return .flushing
          }
          return end()
        case .responseHead:
          return .failure(.bad("internal: an answer where a request was expected"))
        }
      }
      return .needMore
    } catch {
      abandon()
      return .failure(error)
    }
  }

  /// The request whose end was read.
  mutating func end() -> Step {
    // The head, the request and the body are moved out (swapped for nothing), not copied.
    var taken: HTTPRequestHead?
    swap(&taken, &self.head)
    guard let head = taken else { return .failure(.bad("internal: no request head")) }
    ended += 1
    var planned: HTTPRequest?
    swap(&planned, &self.request)
    var request =
      planned ?? HTTPRequest(method: head.method, target: head.target, headers: head.headers)
    swap(&request.body, &body)
    body = []
    let keepAlive = Self.keepsAlive(head)
    if let sink {
      self.sink = nil
      return .streamed(request, sink: sink, keepAlive: keepAlive)
    }
    return .request(request, keepAlive: keepAlive)
  }

  /// `head.keepAlive`, without reading the `Connection` tokens of a head that has none (most):
  /// HTTP/1.1 then keeps the connection, HTTP/1.0 does not.
  static func keepsAlive(_ head: HTTPRequestHead) -> Bool {
    for field in head.headers.fields
    where field.name.utf8.count == 10 && HTTPHeaders.sameName(field.name, "Connection") {
      return head.keepAlive
    }
    return head.minorVersion >= 1
  }

  /// Gives the sink the bytes held for it; the step when that ends the request (the body ended,
  /// or the sink answered), nil to read on.
  mutating func release() -> Step? {
    guard let sink, !held.isEmpty || heldEnd else { return nil }
    if !held.isEmpty {
      let stop = held.withUnsafeBytes { sink.receive($0) }
      held.removeAll(keepingCapacity: true)
      if let stop {
        self.sink = nil
        head = nil
        held = []
        heldEnd = false
        return .answered(stop)
      }
    }
    guard heldEnd else { return nil }
    heldEnd = false
    held = []
    return end()
  }

  /// Asks the planner what to do with the body of `started`: nil to read on.
  mutating func plan(_ started: HTTPRequestHead) -> Step? {
    var decided = HTTPBodyPlan.buffer
    if let planner {
      let request = HTTPRequest(
        method: started.method, target: started.target, headers: started.headers)
      self.request = request
      decided = planner(request)
    }
    switch decided {
    case .buffer:
      if case .length(let length) = started.framing {
        guard length <= bufferLimit else { return .failure(tooLarge()) }
        body.reserveCapacity(length)
      }
    case .stream(let sink):
      self.sink = sink
    case .answer(let response):
      self.head = nil
      return .answered(response)
    }
    return nil
  }

  /// Whether a request head announces a body (a length above 0, or chunks).
  static func hasBody(_ head: HTTPRequestHead) -> Bool {
    switch head.framing {
    case .none: false
    case .length(let length): length > 0
    case .chunked, .untilClose: true
    }
  }

  func tooLarge() -> HTTPParseError {
    HTTPParseError(status: 413, message: "request body larger than \(bufferLimit) bytes")
  }
}
