import SNMWire

/// Takes the elements of a 2xx answer's top-level JSON array while its body still arrives, as far
/// as the body has been checked (``JSONStreamValidator``), so that work on the rows is done between
/// the reads instead of after the last byte. What it makes comes back with the answer
/// (``SNMResponse/arrived``) and nowhere else: an answer that fails later (cut off, not JSON, a
/// cancel) is thrown away with it, so a consumer never shows anything by itself.
///
/// ```swift
/// struct CountRows: ArrivingElementsConsumer {
///   var seen = 0
///   mutating func take(_ checked: UnsafeBufferPointer<UInt8>, elements count: Int) {
///     seen = count
///   }
/// }
/// let response = try await ArrivingElements.$current.withValue(ArrivingElements { CountRows() }) {
///   try await provider.send(endpoint: endpoint)
/// }
/// (response.arrived as? CountRows)?.seen   // the elements handed over before the last byte
/// ```
public protocol ArrivingElementsConsumer: Sendable {
  /// More of the body was checked: `checked` is the body from its first byte, holding exactly
  /// the array's first `count` elements, each complete and valid JSON (and the `,` after the
  /// last). `count` never shrinks between calls (the same count again: nothing new was checked);
  /// `checked` is valid only during the call.
  mutating func take(_ checked: UnsafeBufferPointer<UInt8>, elements count: Int)
}

/// Where a transport gets a consumer for each answer whose body is an array of elements, and
/// whether such a body may spill to a file past a bound (``BodySpill``): the task's
/// ``current``, read when a request is sent. Both transports check bodies as they arrive
/// (``ArrivingBody``); ``SNMResponse/arrived`` is nil for an answer whose body never passed an
/// element before its end (a small one).
public struct ArrivingElements: Sendable {
  /// Makes the consumer of one answer (a request that is sent again, or redirected, gets a new
  /// one for each answer); nil: none.
  public let make: (@Sendable () -> any ArrivingElementsConsumer)?
  /// Where a 2xx array's body goes past what memory holds; nil: it stays in memory, within the
  /// request's `maximumBodyBytes`. No consumer is handed elements once the body spills.
  public let spill: BodySpill?

  public init(_ make: @escaping @Sendable () -> any ArrivingElementsConsumer) {
    self.make = make
    spill = nil
    writesRows = nil
  }

  /// Spills past `spill`, handing the elements before it to what `make` makes, if anything.
  public init(
    spill: BodySpill?, writesRows: ArrivingLines.Layout? = nil,
    _ make: (@Sendable () -> any ArrivingElementsConsumer)? = nil
  ) {
    self.make = make
    self.spill = spill
    self.writesRows = writesRows
  }

  /// How the check on arrival writes the rows as it reads them, as ndjson lines or as json
  /// indents them (``ArrivingLines``, given back as ``SNMResponse/arrived`` when there is no
  /// consumer); nil: it does not.
  public let writesRows: ArrivingLines.Layout?

  /// The consumers for the requests this task sends (tasks it starts inherit it); nil: none.
  @TaskLocal public static var current: ArrivingElements?
}

/// The rows written by the check on arrival come back as what arrived: they are never
/// handed elements (the checker writes them).
extension ArrivingLines: ArrivingElementsConsumer {
  public func take(_ checked: UnsafeBufferPointer<UInt8>, elements count: Int) {}
}
