import Foundation
import SNMWire

/// Why a plain HTTP exchange failed, or a body could not be taken over either transport
/// (``ArrivingBody``), before it is worded as an ``SNMNetworkError``
/// (``networkError(for:)``).
enum PlainHTTPFailure: Error, Equatable {
  case unreachable(String)
  case timedOut
  case cancelled
  /// The connection ended early; `receivedNothing` means nothing of an answer came: not one
  /// byte, or only the start of a status line (``PlainHTTPReader/statusLineCut(_:)``, which
  /// libcurl takes as nothing too). A kept connection the server had closed: a read may be sent
  /// again on a new one.
  case closedEarly(receivedNothing: Bool)
  /// The connection ended before one byte of the answer came, and the request is not sent again
  /// (a write, which the server may have applied; a read on a new connection): worded by what
  /// it does (``TransportRequest/unansweredReason(_:)``).
  case unanswered
  /// The first `send` of the request failed with not a byte of it taken (the peer's reset had
  /// come after the idle check): nothing left this machine, so the server cannot have read it,
  /// and any request, a write too, may go again on a new connection (a byte taken may have
  /// reached the server and been read, whatever came back: ``closedEarly(receivedNothing:)``).
  case notSent
  case malformed(String)
  /// The body passed the request's limit (bytes).
  case tooLarge(Int)
  /// The body file could not be read, or the answer's file written.
  case localFile(TransportFileError)
}

extension PlainHTTPFailure {
  /// What the decoder's refusal of an answer is: too large past the body's `limit` (413), else
  /// not HTTP (in the decoder's words).
  init(refused error: HTTPParseError, limit: Int) {
    self =
      error.status == 413
      ? .tooLarge(limit) : .malformed("the answer is not valid HTTP (\(error))")
  }
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
/// written to that file as it arrives (``BesideFile``: whole or not at all), with no
/// byte limit; any other answer's body is read as it arrives into an ``ArrivingBody`` (memory
/// within `maximumBodyBytes`, checked on the way; a 2xx array of rows that `arriving` lets spill
/// goes on in a file past its bound, within the spill's own limit).
///
/// ```swift
/// var reader = PlainHTTPReader(buffered: [], maximumBodyBytes: 256 << 20)
/// let answer = try reader.readAnswer(isHead: false) { room, after in
///   try connection.receive(into: room, then: after, deadline: deadline)
/// }
/// ```
/// Once the decoder knows the next bytes are body (``HTTPDecoder/bodyAhead``), they are read
/// straight into the ``ArrivingBody`` (its memory, or the spill's window before its file), with
/// a few bytes more into a small room for the decoder (the next chunk's size line); any other
/// read goes to an array the decoder keeps as its buffer, from which a body's bytes are copied
/// once. Kept with its connection: bytes after one answer are the start of the next.
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
  /// The answer holds a secret: every read it came in, and its body's memory, are zeroed when let
  /// go (``wipe()`` at the end).
  var holdsSecrets = false {
    didSet { decoder.wipesBuffers = holdsSecrets }
  }

  /// A reader that starts with `buffered`, the bytes read past the connection's last answer.
  init(
    buffered: [UInt8], maximumBodyBytes: Int, saveTo: String? = nil,
    arriving: ArrivingElements? = nil
  ) {
    var limits = HTTPLimits.responses
    limits.maxBodyBytes = Self.decoderLimit(
      maximumBodyBytes: maximumBodyBytes, saveTo: saveTo, arriving: arriving)
    decoderLimit = limits.maxBodyBytes
    decoder = HTTPDecoder(reading: .responses, limits: limits)
    decoder.append(contentsOf: buffered)
    self.maximumBodyBytes = maximumBodyBytes
    self.saveTo = saveTo
    self.arriving = arriving
  }

  /// The decoder's body limit for an answer that may go to disk (2^60 bytes: none that matters).
  static let unlimited = 1 << 60

  /// The body the decoder takes, over either transport. A body saved to disk has no limit but
  /// the disk's; the reader holds others to the limit. A body in memory meets its own limit
  /// first (``ArrivingBody``); the decoder's is a spill's.
  static func decoderLimit(maximumBodyBytes: Int, saveTo: String?, arriving: ArrivingElements?)
    -> Int
  {
    saveTo != nil
      ? unlimited : max(maximumBodyBytes, arriving?.spill?.mostBytes ?? maximumBodyBytes)
  }

  /// The most one read takes.
  static let readBytes = 64 << 10
  /// The room after a read straight into a body: the next chunk's line, and a little of its data.
  static let framingBytes = 512
  /// That room, kept between reads.
  private let framing = ReceivedBytes(capacity: PlainHTTPReader.framingBytes)

  /// Bytes read after the answer's end (none a request asked for: the connection is not used
  /// again).
  var unread: [UInt8] { Array(decoder.unread) }

  /// Reads the connection's next bytes into the first room and, past its end, into the second
  /// (`readv`); how many came, 0 at the end of the stream.
  typealias Source = (UnsafeMutableRawBufferPointer, UnsafeMutableRawBufferPointer)
    throws(PlainHTTPFailure) -> Int

  /// Reads the next answer (interim 1xx answers skipped; no body for `isHead`).
  mutating func readAnswer(isHead: Bool, from next: Source) throws(PlainHTTPFailure)
    -> PlainHTTPAnswer
  {
    decoder.answersHEAD = isHead
    var receivedAny = !decoder.unread.isEmpty
    // The answer's bytes taken so far, for a head cut in its status line (``statusLineCut``).
    var received = decoder.unread.count
    var head: HTTPResponseHead?
    // Where the body goes: a file for a 200 answer with `saveTo`, else memory (or a spill).
    var body: ArrivingBody?
    var file: BesideFile?
    while true {
      let part: HTTPDecoder.Part?
      do {
        part = try decoder.next()
      } catch {
        throw PlainHTTPFailure(refused: error, limit: decoderLimit)
      }
      switch part {
      case .responseHead(let started)?:
        head = started
        (body, file) = try sink(for: started)
        continue
      case .body(let bytes)?:
        if let file {
          try Self.write(bytes, to: file)
        } else {
          try bytes.withUnsafeBufferPointer { (bytes) throws(PlainHTTPFailure) in
            try body?.received(bytes)
          }
        }
        continue
      case .end?:
        guard let head else { continue }
        return try Self.answer(head, body, file)
      case .requestHead?:
        throw .malformed("the answer is not valid HTTP (a request)")
      case nil:
        break
      }
      let count: Int
      do {
        count = try receive(from: next, into: &body)
      } catch .closedEarly {
        count = 0
      }
      if count > 0 {
        receivedAny = true
        received += count
        continue
      }
      switch decoder.finish() {
      case .complete:
        guard let head else { throw .closedEarly(receivedNothing: !receivedAny) }
        return try Self.answer(head, body, file)
      case .idle:
        throw .closedEarly(receivedNothing: !receivedAny)
      case .inHead where decoder.unread.count == received && Self.statusLineCut(decoder.unread):
        // Part of a status line and no more (no interim answer before it): libcurl keeps such
        // bytes to itself ("Empty reply from server") and takes them as nothing answered, a
        // read it sends again on a new connection; so does this transport, in the same words
        // (``TransportRequest/unansweredReason(_:)``) over http:// as over https://.
        throw .closedEarly(receivedNothing: true)
      case .inHead:
        throw .closedEarly(receivedNothing: false)
      case .inBody(let remaining?):
        throw Self.cutOff("transfer closed with \(remaining) bytes remaining to read")
      case .inBody(nil):
        throw Self.cutOff("transfer closed with outstanding read data remaining")
      }
    }
  }

  /// Whether `bytes`, the whole of an answer cut off, are a status line's start and no more: no
  /// line end, and as much of `HTTP/` as came. (Bytes that cannot start one the decoder refuses
  /// as they come, "Received HTTP/0.9 when not allowed", as libcurl does; `http/` too, which
  /// libcurl takes.)
  static func statusLineCut(_ bytes: ArraySlice<UInt8>) -> Bool {
    !bytes.contains(10) && bytes.starts(with: "HTTP/".utf8.prefix(bytes.count))
  }

  /// Reads the connection's next bytes: the body's straight into it when the decoder knows they
  /// are body (and what follows them, up to ``framingBytes``, for the decoder), else into an array
  /// the decoder keeps. Returns how many came (0: the stream ended).
  private mutating func receive(from next: Source, into body: inout ArrivingBody?)
    throws(PlainHTTPFailure) -> Int
  {
    guard let ahead = decoder.bodyAhead, body != nil else {
      let bytes = try [UInt8](reading: Self.readBytes) { room throws(PlainHTTPFailure) in
        try next(room, UnsafeMutableRawBufferPointer(start: nil, count: 0))
      }
      if !bytes.isEmpty { decoder.append(taking: bytes) }
      return bytes.count
    }
    let framing = self.framing
    framing.removeAll()
    var count = 0
    let taken = try body?.read(atMost: min(ahead, Self.readBytes)) {
      room throws(PlainHTTPFailure) in
      _ = try framing.read(atMost: Self.framingBytes) { after throws(PlainHTTPFailure) in
        count = try next(room, after)
        return count - room.count
      }
      return min(count, room.count)
    }
    if let taken, taken > 0 { decoder.skipBody(taken) }
    if framing.count > 0 { decoder.append(framing.bytes) }
    return max(count, 0)
  }

  /// Zeroes what it holds of the reads (an answer that held a secret, once read).
  mutating func wipe() {
    decoder.wipe()
    framing.wipe()
  }

  /// Reads the next answer from whole reads handed over one at a time (the pieces a test or a
  /// fuzzer cuts a stream into; empty: the end), each as a connection's reads would give it.
  mutating func readAnswer(
    isHead: Bool, pieces next: () throws(PlainHTTPFailure) -> [UInt8]
  ) throws(PlainHTTPFailure) -> PlainHTTPAnswer {
    var piece: [UInt8] = []
    var offset = 0
    return try readAnswer(isHead: isHead) { room, after throws(PlainHTTPFailure) in
      if offset == piece.count {
        piece = try next()
        offset = 0
      }
      var count = 0
      for target in [room, after] {
        let take = min(target.count, piece.count - offset)
        guard take > 0 else { continue }
        piece[offset..<offset + take].withUnsafeBytes { target.copyMemory(from: $0) }
        (offset, count) = (offset + take, count + take)
      }
      return count
    }
  }

  /// Where an answer's body goes: a file for a 200 answer with `saveTo` (an empty body makes an
  /// empty file; a 206's part never replaces a file), else memory, checked as it comes
  /// (``ArrivingBody``, which may spill a 2xx array of rows).
  private func sink(for head: HTTPResponseHead) throws(PlainHTTPFailure)
    -> (ArrivingBody?, BesideFile?)
  {
    if let saveTo, head.status == 200 {
      do {
        return (nil, try BesideFile(destination: saveTo))
      } catch {
        throw .localFile(error)
      }
    }
    let length: Int? = if case .length(let length) = head.framing { length } else { nil }
    let body = try ArrivingBody(
      status: head.status, announced: length, limit: maximumBodyBytes, arriving: arriving,
      wiping: holdsSecrets)
    return (body, nil)
  }

  /// Appends body bytes to a file (a write that fails removes the file).
  private static func write(_ bytes: ArraySlice<UInt8>, to writer: BesideFile)
    throws(PlainHTTPFailure)
  {
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

  /// The answer: its body from memory (with its shape when it was checked on the way, and what
  /// the consumer made of its elements then), a spilled body's file, or its file flushed and
  /// renamed into place.
  private static func answer(
    _ head: HTTPResponseHead, _ body: ArrivingBody?, _ file: BesideFile?
  ) throws(PlainHTTPFailure) -> PlainHTTPAnswer {
    var answer = PlainHTTPAnswer(
      status: head.status, headers: head.headers.fields, body: Data(), keepAlive: head.keepAlive)
    if let body {
      let whole = try body.finish()
      (answer.body, answer.checkedShape, answer.arrived, answer.spilled) = (
        whole.bytes, whole.shape, whole.arrived, whole.spilled
      )
    } else if let file {
      do {
        try file.finish()
      } catch {
        throw .localFile(error)
      }
      answer.savedPath = file.destination
      answer.savedBytes = file.bytes
    }
    return answer
  }

  /// The server went away while the body came (it died, or its connection was cut): an answer
  /// that must not be shown, worded as curl words it.
  static func cutOff(_ detail: String) -> PlainHTTPFailure {
    .malformed("the answer was cut off (\(detail))")
  }
}
