import Foundation
import SNMWire

/// An answer's body read into memory as it arrives, checked as JSON on the way
/// (``JSONStreamValidator``), so that at its last byte it is known whole and valid: what both
/// transports read a body into (but a ``TransportRequest/responseFile``'s). A 2xx answer's
/// elements go to the request's ``ArrivingElements`` consumer as they are checked, and a 2xx
/// array of rows whose spill allows it goes on in a file past the spill's bound
/// (``SpillingBody``, within the spill's own limit); any other body stays in memory within
/// `limit`.
///
/// ```swift
/// var body = try ArrivingBody(status: 200, announced: nil, limit: 256 << 20, arriving: arriving)
/// try body.received(bytes)      // each piece, as it comes (a copy)
/// try body.read(atMost: 65_536) { room in try socket.receive(into: room) }   // or straight in
/// let whole = try body.finish() // the bytes (a spilled body's file, mapped), its shape, ...
/// ```
/// Throws ``PlainHTTPFailure``: `.tooLarge` past the limit, `.localFile` when the spill's file
/// cannot be made or written, `.malformed` for a spilled body that is not JSON.
struct ArrivingBody {
  /// The body so far, until it spills.
  private var data: ReceivedBytes
  private var spilling: SpillingBody?
  private var checker = JSONStreamValidator()
  /// Made once the first elements of a 2xx body are checked.
  private var consumer: (any ArrivingElementsConsumer)?
  /// The request's, for a 2xx answer; nil for any other.
  private let arriving: ArrivingElements?
  /// The most held in memory.
  let limit: Int

  /// The body of an answer with `status`, whose head announced `length` bytes (nil: not said).
  /// A 2xx answer that may spill may announce up to the spill's limit.
  /// `wiping`: the body holds a secret, and its memory is zeroed when let go (``ReceivedBytes``).
  init(
    status: Int, announced length: Int?, limit: Int, arriving: ArrivingElements?,
    wiping: Bool = false
  ) throws(PlainHTTPFailure) {
    let arriving = (200..<300).contains(status) ? arriving : nil
    let spill = arriving?.spill
    let most = max(limit, spill?.mostBytes ?? limit)
    if let length, length > most { throw .tooLarge(most) }
    // A body that may spill is given room for what memory holds of it.
    let room = spill.map { $0.memoryBytes + (64 << 10) } ?? Self.largestReservation
    data = ReceivedBytes(capacity: min(length ?? 0, room), wiping: wiping)
    self.arriving = arriving
    self.limit = limit
    if let layout = arriving?.writesRows {
      // The rows' text held beside the body: about as much as memory holds of a body that may
      // spill.
      let lines = ArrivingLines(
        most: (spill?.memoryBytes ?? Self.mostLines) - (64 << 10), layout: layout)
      // Past that, in a file beside the body's, so that every row is written in the one pass.
      lines.spool = spill.map { SpooledText(policy: $0) }
      checker.lines = lines
    }
  }

  /// The most text of rows the check on arrival holds for a body that may not spill.
  static let mostLines = 2 << 20

  /// What came of the body's elements: the consumer's, else the lines the check wrote (when it
  /// took rows).
  private var arrivedRows: (any ArrivingElementsConsumer)? {
    if let consumer { return consumer }
    guard let lines = checker.lines, lines.end != nil else { return nil }
    return lines
  }

  /// The most an announced length makes the body set aside before the bytes arrive; a larger
  /// body grows as it comes.
  static let largestReservation = 64 << 20

  /// More of the body came, in another's buffer: copied.
  mutating func received(_ bytes: UnsafeBufferPointer<UInt8>) throws(PlainHTTPFailure) {
    _ = try read(atMost: bytes.count) { room in
      // The room stops one byte past a limit: that byte is enough to refuse the body.
      let count = min(room.count, bytes.count)
      room.copyMemory(from: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[..<count])))
      return count
    }
  }

  /// Lets `read` put at most `most` of the body's next bytes straight where they are kept (the
  /// memory, or the spill's window before they go to its file) and takes them as
  /// ``received(_:)`` does; returns what `read` returned (0 or less: nothing came).
  mutating func read(
    atMost most: Int, _ read: (UnsafeMutableRawBufferPointer) throws(PlainHTTPFailure) -> Int
  ) throws(PlainHTTPFailure) -> Int {
    if let spilling { return try spilling.read(atMost: most, read, checker: &checker) }
    // One byte past the limit at most, to know it was passed.
    let got = try data.read(atMost: min(most, limit - data.count + 1), read)
    guard got > 0 else { return got }
    guard data.count <= limit else { throw .tooLarge(limit) }
    let body = data.bytes
    checker.received(body)
    hand(body)
    if let spill = arriving?.spill, body.count >= spill.memoryBytes, checker.isUnderWay {
      // Past the bound: the rows go on in a file (the consumer keeps what it has).
      spilling = try SpillingBody(starting: body, policy: spill, checker: &checker)
      data = ReceivedBytes(capacity: 0)
    }
    return got
  }

  /// Hands the newly checked elements to the consumer, made the first time there are some.
  private mutating func hand(_ body: UnsafeBufferPointer<UInt8>) {
    guard let make = arriving?.make, let (count, end) = checker.checkedElements else { return }
    if consumer == nil { consumer = make() }
    consumer?.take(UnsafeBufferPointer(rebasing: body[..<end]), elements: count)
  }

  /// The whole body, and what was learned of it on the way.
  struct Whole {
    /// The bytes: a spilled body's file, mapped.
    var bytes: Data
    /// Its shape when it was checked as it came (nil: it was not, or it is not JSON).
    var shape: JSONShape?
    /// What the consumer made of its elements (only for a body that is JSON).
    var arrived: (any ArrivingElementsConsumer)?
    /// Whether `bytes` is a spilled body's file (``BodySpill``).
    var spilled = false
  }

  /// The body came whole.
  func finish() throws(PlainHTTPFailure) -> Whole {
    if let spilling {
      let (bytes, shape) = try spilling.finish(checker: checker)
      // Known bad without reading it again (the parser's reason would build the rows to it).
      guard let shape else {
        throw .malformed("the body is not JSON (\(bytes.count) bytes, checked as they came)")
      }
      return Whole(bytes: bytes, shape: shape, arrived: arrivedRows, spilled: true)
    }
    guard checker.isUnderWay else { return Whole(bytes: data.takeData()) }
    let shape = checker.finish(data.bytes)
    // Elements of a body that went bad after them are never handed back.
    return Whole(bytes: data.takeData(), shape: shape, arrived: shape == nil ? nil : arrivedRows)
  }
}
