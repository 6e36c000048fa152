/// Checks a JSON body while it arrives, so that a large answer is known valid (with its
/// ``JSONShape``) when its last byte comes instead of after a second pass over it. The verdict is
/// ``JSONValidator``'s on the whole body: the validator runs over the bytes received so far, and
/// each run goes on from where the last one passed between two elements of the top-level array
/// (the only place it stops), the same state it would have reached in one pass.
///
/// ```swift
/// var checker = JSONStreamValidator()
/// body.append(contentsOf: chunk)
/// body.withUnsafeBytes { checker.received($0.bindMemory(to: UInt8.self)) }
/// ...
/// let shape = body.withUnsafeBytes { checker.finish($0.bindMemory(to: UInt8.self)) }
/// // nil: not JSON; JSONDocument(validating:) says why
/// ```
///
/// Only a body that starts with `[` is checked as it comes (a result's rows); a run starts only
/// once the bytes since the last one are at least as many as those it would read again, so the
/// whole check reads each byte at most about twice, even for one element as large as the body.
public struct JSONStreamValidator: Sendable {
  /// Where the next run starts: after a `,` between two top-level elements.
  private var resume: JSONValidator.Checkpoint?
  /// The body's size at the last run.
  private var checkedUpTo = 0
  /// The body does not start with `[`: it is checked whole by `finish`, or not at all.
  private var notRows = false

  /// The least new bytes that start a run.
  private let least: Int

  /// Where the rows are written as ndjson lines as they are checked (``ArrivingLines``); nil:
  /// they are only checked.
  public var lines: ArrivingLines?
  /// The bytes removed from the body before the ones this checker is given (``dropped(_:)``).
  private var droppedBytes = 0

  public init() {
    least = 64 << 10
  }

  /// A checker that runs once `least` new bytes came (tests run it on every byte).
  init(runningEvery least: Int) {
    self.least = least
  }

  /// More of the body came: `bytes` is all of it so far.
  public mutating func received(_ bytes: UnsafeBufferPointer<UInt8>) {
    guard !notRows else { return }
    let start = resume?.offset ?? 0
    guard bytes.count - checkedUpTo >= max(least, checkedUpTo - start) else { return }
    checkedUpTo = bytes.count
    var validator = JSONValidator(bytes)
    takeLines(bytes)
    if let resume {
      validator.restore(resume)
    } else {
      validator.skipWhitespace()
      guard validator.offset < bytes.count else { return }
      guard bytes[validator.offset] == UInt8(ascii: "[") else {
        notRows = true
        return
      }
    }
    validator.recordsCheckpoints = true
    _ = validator.run(startingAtRoot: resume == nil)
    resume = validator.checkpoint ?? resume
  }

  /// How much of the array is known good so far: its first `count` elements are complete and
  /// valid and lie before byte `end` (just past the `,` after the last of them); nil before a
  /// run has passed one. A body that turns out bad later still started with these.
  public var checkedElements: (count: Int, end: Int)? {
    resume.map { ($0.elements, $0.offset) }
  }

  /// The checked bytes that later runs never read again: from the end of the first element's
  /// last key (the keys every row is compared with) to where the next run starts; nil when there
  /// are none. A reader that holds only the body's start and what the next run reads (the rest
  /// is on disk) removes them from its bytes and says so with ``dropped(_:)``.
  public var unneeded: Range<Int>? {
    guard let resume else { return nil }
    let kept = resume.firstKeys.last?.upperBound ?? 0
    return kept < resume.offset ? kept..<resume.offset : nil
  }

  /// The bytes of `unneeded` were removed from the body this checker is given: the bytes after
  /// them moved back by their count.
  public mutating func dropped(_ range: Range<Int>) {
    guard var moved = resume, range.upperBound <= moved.offset else { return }
    moved.offset -= range.count
    resume = moved
    checkedUpTo -= range.count
    droppedBytes += range.count
  }

  /// Whether a run passed an element of a top-level array: only then is the rest worth checking
  /// on arrival (`finish`); any other body is checked whole when it is used, as before.
  public var isUnderWay: Bool { resume != nil }

  /// The whole body came: its shape, as `JSONValidator(bytes).validate()` gives it, or nil when it
  /// is not JSON.
  public func finish(_ bytes: UnsafeBufferPointer<UInt8>) -> JSONShape? {
    var checker = self
    checker.takeLines(bytes)
    var validator = JSONValidator(bytes)
    guard let resume = checker.resume else { return validator.validate() }
    validator.restore(resume)
    return validator.run(startingAtRoot: false)
  }

  /// Rows from the resume point checked and written at once (``lines``), while they are rows it
  /// takes: the resume point moves past them, as a run of the validator over them would have
  /// moved it.
  private mutating func takeLines(_ bytes: UnsafeBufferPointer<UInt8>) {
    guard let lines, var at = resume, at.uniform else { return }
    let (offset, rows) = lines.take(
      bytes, from: at.offset, elements: at.elements, dropped: droppedBytes,
      firstKeys: at.firstKeys)
    guard rows > 0 else { return }
    at.offset = offset
    at.elements += rows
    at.keyIndex = at.firstKeys.count
    resume = at
  }
}
