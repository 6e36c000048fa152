import Foundation
import SNMWire

/// Why a plain HTTP exchange failed, before it is worded as an ``SNMNetworkError``.
enum PlainHTTPFailure: Error, Equatable {
  case unreachable(String)
  case timedOut
  case cancelled
  /// The connection ended early; `receivedNothing` means not one byte of an answer came (a kept
  /// connection the server had closed: the request may be sent again on a new one).
  case closedEarly(receivedNothing: Bool)
  case malformed(String)
  /// The body passed the request's limit (bytes).
  case tooLarge(Int)
  /// The body file could not be read, or the answer's file written.
  case localFile(TransportFileError)
}

/// One HTTP answer: status, header fields as sent, the body, and whether the connection may be
/// used again.
struct PlainHTTPAnswer {
  var status: Int
  var headers: [HTTPHeaders.Field]
  var body: Data
  var keepAlive: Bool
  /// Where a 200 body went instead of `body` (the reader's `saveTo`), and its size.
  var savedPath: String? = nil
  var savedBytes: Int64 = 0
  /// The shape of a JSON body checked as it came (a large array of rows), nil when it was not.
  var checkedShape: JSONShape? = nil
  /// What the request's ``ArrivingElements`` consumer made of the elements checked on the way.
  var arrived: (any ArrivingElementsConsumer)? = nil
  /// Whether `body` is a spilled body's file, mapped (``BodySpill``).
  var spilled = false
}

/// Reads HTTP/1.1 answers from a stream of chunks with SNMWire's ``HTTPDecoder`` (the framing
/// the local project reads requests with, under one set of limits): the status line and fields,
/// then a body framed by `Content-Length`, `chunked` or the end of the stream, every size the
/// server announces checked before anything is set aside for it. With `saveTo`, a 200 body is
/// written to that file as it arrives (``ResponseFileWriter``: whole or not at all), with no
/// byte limit; any other answer's body is read into memory within `maximumBodyBytes`, but a 2xx
/// array of rows that `arriving` lets spill goes on in a file past its bound (``SpillingBody``,
/// within the spill's own limit).
///
/// ```swift
/// var reader = PlainHTTPReader(maximumBodyBytes: 256 << 20)
/// let answer = try reader.readAnswer(isHead: false) { try connection.nextChunk() }
/// ```
/// Kept with its connection: bytes after one answer are the start of the next.
struct PlainHTTPReader {
  private var decoder: HTTPDecoder
  /// The largest body read into memory; a larger one throws `.tooLarge`.
  let maximumBodyBytes: Int
  /// A file a 200 answer's body is written to instead of memory.
  let saveTo: String?
  /// The body the decoder takes: `maximumBodyBytes`, or a spill's limit past it.
  private let decoderLimit: Int
  /// Takes the elements of a 2xx body in memory as they are checked, and says whether its rows
  /// may spill to a file.
  let arriving: ArrivingElements?

  /// A reader that starts with `buffered`, the bytes read past the connection's last answer.
  init(
    buffered: [UInt8], maximumBodyBytes: Int, saveTo: String? = nil,
    arriving: ArrivingElements? = nil
  ) {
    var limits = HTTPLimits.responses
    // A body saved to disk has no limit but the disk's; the reader holds others to the limit.
    // A body in memory meets its own limit first (`take`); the decoder's is a spill's.
    limits.maxBodyBytes =
      saveTo != nil
      ? Self.unlimited : max(maximumBodyBytes, arriving?.spill?.mostBytes ?? maximumBodyBytes)
    decoderLimit = limits.maxBodyBytes
    decoder = HTTPDecoder(reading: .responses, limits: limits)
    decoder.append(contentsOf: buffered)
    self.maximumBodyBytes = maximumBodyBytes
    self.saveTo = saveTo
    self.arriving = arriving
  }

  /// The decoder's body limit for an answer that may go to disk (2^60 bytes: none that matters).
  static let unlimited = 1 << 60

  /// Where body bytes go as they are read.
  enum BodySink {
    case memory(Data)
    case file(ResponseFileWriter)
    /// A 2xx array of rows past the spill's bound (the bytes before it were in memory).
    case spilled(SpillingBody)
  }

  /// Bytes after the answer (a server never sends them unasked, but keep them honest).
  var unread: [UInt8] { Array(decoder.unread) }

  typealias Source = () throws(PlainHTTPFailure) -> [UInt8]

  /// Reads the next answer (interim 1xx answers skipped; no body for `isHead`).
  mutating func readAnswer(isHead: Bool, from next: Source) throws(PlainHTTPFailure)
    -> PlainHTTPAnswer
  {
    decoder.answersHEAD = isHead
    var receivedAny = !decoder.unread.isEmpty
    var head: HTTPResponseHead?
    var sink = BodySink.memory(Data())
    // Rows are checked as they come, so the body is known to be JSON when its last byte is in.
    var checker = JSONStreamValidator()
    // Made once the first elements of a 2xx body are checked; nil for any other answer.
    var consumer: (any ArrivingElementsConsumer)?
    while true {
      let part: HTTPDecoder.Part?
      do {
        part = try decoder.next()
      } catch {
        throw error.status == 413
          ? .tooLarge(decoderLimit) : .malformed("the answer is not valid HTTP (\(error))")
      }
      switch part {
      case .responseHead(let started)?:
        head = started
        sink = try Self.sink(
          for: started, saveTo: saveTo, limit: maximumBodyBytes,
          spill: (200..<300).contains(started.status) ? arriving?.spill : nil)
        continue
      case .body(let bytes)?:
        if case .spilled(let spilling) = sink {
          try spilling.received(bytes, checker: &checker)
          continue
        }
        try Self.take(bytes, into: &sink, limit: maximumBodyBytes)
        if case .memory(let data) = sink {
          data.withUnsafeBytes { raw in
            let body = raw.bindMemory(to: UInt8.self)
            checker.received(body)
            Self.hand(body, checked: checker, to: &consumer, of: head, from: arriving)
          }
          if let spill = arriving?.spill, data.count >= spill.memoryBytes, checker.isUnderWay,
            let head, (200..<300).contains(head.status)
          {
            // Past the bound: the rows go on in a file (the consumer keeps what it has).
            sink = .spilled(try SpillingBody(starting: data, policy: spill, checker: &checker))
          }
        }
        continue
      case .end?:
        guard let head else { continue }
        return try Self.answer(head, sink, checker: checker, arrived: consumer)
      case .requestHead?:
        throw .malformed("the answer is not valid HTTP (a request)")
      case nil:
        break
      }
      var chunk: [UInt8]
      do {
        chunk = try next()
      } catch .closedEarly {
        chunk = []
      }
      if !chunk.isEmpty {
        receivedAny = true
        decoder.append(contentsOf: chunk)
        continue
      }
      switch decoder.finish() {
      case .complete:
        guard let head else { throw .closedEarly(receivedNothing: !receivedAny) }
        return try Self.answer(head, sink, checker: checker, arrived: consumer)
      case .idle:
        throw .closedEarly(receivedNothing: !receivedAny)
      case .inHead:
        throw .closedEarly(receivedNothing: false)
      case .inBody(let remaining?):
        throw Self.cutOff("transfer closed with \(remaining) bytes remaining to read")
      case .inBody(nil):
        throw Self.cutOff("transfer closed with outstanding read data remaining")
      }
    }
  }

  /// Where an answer's body goes: a file for a 200 answer with `saveTo` (an empty body makes an
  /// empty file; a 206's part never replaces a file), else memory, with room set aside for an announced length within
  /// `limit`.
  /// A 2xx answer that may `spill` may announce up to the spill's limit.
  static func sink(
    for head: HTTPResponseHead, saveTo: String?, limit: Int, spill: BodySpill? = nil
  )
    throws(PlainHTTPFailure) -> BodySink
  {
    let limit = max(limit, spill?.mostBytes ?? limit)
    let length: Int? = if case .length(let length) = head.framing { length } else { nil }
    if let saveTo, head.status == 200 {
      do {
        return .file(try ResponseFileWriter(destination: saveTo))
      } catch {
        throw .localFile(error)
      }
    }
    if let length, length > limit { throw .tooLarge(limit) }
    // A body that may spill is given room for what memory holds of it.
    let room = spill.map { $0.memoryBytes + (64 << 10) } ?? Self.largestReservation
    return .memory(Data(capacity: min(length ?? 0, room)))
  }

  /// Appends body bytes to the sink (a file write that fails removes the file).
  static func take(_ bytes: ArraySlice<UInt8>, into sink: inout BodySink, limit: Int)
    throws(PlainHTTPFailure)
  {
    switch sink {
    case .memory(var data):
      guard data.count + bytes.count <= limit else { throw .tooLarge(limit) }
      sink = .memory(Data())
      data.append(contentsOf: bytes)
      sink = .memory(data)
    case .spilled:
      // Taken by the reader (`SpillingBody.received`), with the body's check.
      break
    case .file(let writer):
      let failure = bytes.withUnsafeBytes { raw -> TransportFileError? in
        do throws(TransportFileError) {
          try writer.write(raw)
          return nil
        } catch {
          return error
        }
      }
      if let failure { throw .localFile(failure) }
    }
  }

  /// Hands a 2xx body's newly checked elements to its consumer, made from `arriving` the first
  /// time there are some.
  static func hand(
    _ body: UnsafeBufferPointer<UInt8>, checked checker: JSONStreamValidator,
    to consumer: inout (any ArrivingElementsConsumer)?, of head: HTTPResponseHead?,
    from arriving: ArrivingElements?
  ) {
    guard let make = arriving?.make, let head, (200..<300).contains(head.status),
      let (count, end) = checker.checkedElements
    else { return }
    if consumer == nil { consumer = make() }
    consumer?.take(UnsafeBufferPointer(rebasing: body[..<end]), elements: count)
  }

  /// The answer: its body from memory (with its shape when `checker` checked it on the way, and
  /// what `arrived` made of its elements then), or its file flushed and renamed into place.
  static func answer(
    _ head: HTTPResponseHead, _ sink: BodySink, checker: JSONStreamValidator,
    arrived: (any ArrivingElementsConsumer)? = nil
  ) throws(PlainHTTPFailure) -> PlainHTTPAnswer {
    var answer = PlainHTTPAnswer(
      status: head.status, headers: head.headers.fields, body: Data(), keepAlive: head.keepAlive)
    switch sink {
    case .memory(let data):
      answer.body = data
      if checker.isUnderWay {
        answer.checkedShape = data.withUnsafeBytes { checker.finish($0.bindMemory(to: UInt8.self)) }
        // Rows of a body that went bad after them are never handed back.
        if answer.checkedShape != nil { answer.arrived = arrived }
      }
    case .spilled(let spilling):
      let (body, shape) = try spilling.finish(checker: checker)
      // Known bad without reading it again (the parser's reason would build the rows to it).
      guard let shape else {
        throw .malformed("the body is not JSON (\(body.count) bytes, checked as they came)")
      }
      (answer.body, answer.checkedShape, answer.arrived, answer.spilled) = (
        body, shape, arrived, true
      )
    case .file(let writer):
      do {
        try writer.finish()
      } catch {
        throw .localFile(error)
      }
      answer.savedPath = writer.destination
      answer.savedBytes = writer.bytes
    }
    return answer
  }

  /// The most an announced `Content-Length` makes the reader set aside before the bytes arrive;
  /// a larger body grows as it comes.
  static let largestReservation = 64 << 20

  /// The server went away while the body came (it died, or its connection was cut): an answer
  /// that must not be shown, worded as curl words it.
  static func cutOff(_ detail: String) -> PlainHTTPFailure {
    .malformed("the answer was cut off (\(detail))")
  }
}
