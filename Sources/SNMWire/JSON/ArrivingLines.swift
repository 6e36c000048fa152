/// The text of an answer's rows, as ndjson lines or as json indents them (``Layout``), written by
/// the check on arrival as it reads them (``JSONStreamValidator/lines``): one pass over each
/// row's bytes checks it and writes it, where the check and then the writer (``JSONRowWriter``)
/// each read it whole. Held, never shown by itself: the printer writes the rows before the held
/// ones, the held text, and the rows after it, once the answer is whole and valid.
///
/// ```swift
/// var checker = JSONStreamValidator()
/// checker.lines = ArrivingLines(most: 2 << 20)
/// ... checker.received(body) as the body arrives, then checker.finish(body) ...
/// // rows lines.start.count ..< lines.end.count are lines.text, each a line as ndjson prints it
/// // (with `ArrivingLines(most:layout: .indented)`, each as json prints an element after the first)
/// ```
///
/// A row is taken only when it is an object with the first row's keys, byte for byte and in
/// order (each key at most fifteen bytes), whose strings hold no escape and no C1 control (the
/// writer writes those again) and which nests at most 64 deep, and the rows before it were
/// taken: the first row that is not stops the taking, and the check goes on as before from its
/// first byte, so every verdict on a row not taken is the check's own. A row is written as the
/// writer writes it: its bytes without the whitespace outside its strings, compact or indented.
public final class ArrivingLines: @unchecked Sendable {
  /// The rows taken, each followed by a line end: room for `most` and a row past it is made at
  /// the first take (never copied as it grows), and the printer writes it from where it is.
  package let text = JSONTextBuffer(capacity: 64)
  /// Where the rows taken start and end in the whole body (as a walk over its elements stands
  /// before the first and after the last); nil before one is taken.
  public private(set) var start: JSONElements.Position?
  public private(set) var end: JSONElements.Position?
  /// Just past the `,` after the last row taken, in the whole body: where the next take starts.
  private var next = 0
  /// No more rows are taken: one was not, or the text reached `most` bytes with no `spool` to
  /// set it aside in.
  private(set) var stopped = false
  /// The most text held.
  let most: Int
  /// Where the text goes each time it reaches `most` bytes (at a row's end), so that the taking
  /// goes on past what memory holds: the rows taken are then the text set aside, in order, and
  /// `text` after it. Nil: the taking stops at `most`.
  public var spool: (any HeldTextSpool)?
  /// How the rows taken are written.
  public let layout: Layout
  /// The first row's keys and their members' heads (``patterns(_:_:)``), once made.
  private var known: (keys: [JSONValidator.KeyPattern], heads: [MemberHead])?

  /// How the rows taken are written: as `ndjson` prints them (``lines``: each compact on a line
  /// of its own) or as `json` prints an array's elements after its first (``indented``: each
  /// after a `,` and a line end, indented two spaces a level, the element one level deep).
  public enum Layout: Sendable {
    case lines, indented
  }

  /// The room made past `most` at the first take (``pastMost``; less in the rows fuzz target,
  /// so that its short bodies reach the walk that stops where the room does).
  let past: Int

  public init(most: Int, layout: Layout = .lines) {
    self.most = most
    self.layout = layout
    past = Self.pastMost
  }

  init(most: Int, layout: Layout, past: Int) {
    self.most = most
    self.layout = layout
    self.past = past
  }

  /// Gives up every row taken and the text set aside of them (its file closed, its room on disk
  /// given back): the rows are written from the body as if none had been taken. False when
  /// nothing was set aside (giving up frees no room on disk).
  public func giveUp() -> Bool {
    guard let spool, !spool.pieces.isEmpty else { return false }
    self.spool = nil
    start = nil
    end = nil
    stopped = true
    text.count = 0
    return true
  }

  /// The room set aside past `most`: the last row taken ends past it.
  static let pastMost = 64 << 10

  /// The text of the rows taken, after what `spool` holds of them.
  public func withText<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows
    -> Result
  {
    try body(text.written)
  }

  /// Takes the rows of `bytes` from `offset` (just past a `,` between two elements of the
  /// top-level array, with `elements` before it; `dropped` bytes of the whole body before
  /// `bytes`) whose first row's keys are at `firstKeys`, while each is followed by a `,`;
  /// returns the offset past the last `,` taken and how many rows were taken.
  func take(
    _ bytes: UnsafeBufferPointer<UInt8>, from offset: Int, elements: Int, dropped: Int,
    firstKeys: [Range<Int>]
  ) -> (offset: Int, rows: Int) {
    guard !stopped else { return (offset, 0) }
    if let end, next != offset + dropped || end.count != elements {
      // Not where the last rows taken ended: the held rows would not be one run.
      stopped = true
      return (offset, 0)
    }
    guard let (keys, heads) = patterns(bytes, firstKeys) else {
      stopped = true
      return (offset, 0)
    }
    guard let source = bytes.baseAddress else { return (offset, 0) }
    text.grow(toHold: most + past)
    // The walk reads the keys and heads where they are (an array's subscript was a call of its
    // own a member once the walk grew past what is inlined); `heads` has a head for each key.
    return keys.withUnsafeBufferPointer { keys in
      heads.withUnsafeBufferPointer { heads in
        switch layout {
        case .lines:
          takeRows(
            CompactRows.self, source, bytes.count, from: offset, keys: keys, heads: heads,
            elements: elements, dropped: dropped)
        case .indented:
          takeRows(
            IndentedRows.self, source, bytes.count, from: offset, keys: keys, heads: heads,
            elements: elements, dropped: dropped)
        }
      }
    }
  }

  /// The first row's keys as each row is compared with them, and their members' heads: made at
  /// the first take (the keys are the same bytes at every take); nil when the keys are not
  /// copied as they are (printable ASCII without an escape, at most fifteen bytes).
  private func patterns(_ bytes: UnsafeBufferPointer<UInt8>, _ firstKeys: [Range<Int>])
    -> (keys: [JSONValidator.KeyPattern], heads: [MemberHead])?
  {
    if let known { return known }
    let keys = firstKeys.map { JSONValidator.KeyPattern(bytes, $0) }
    let plain = firstKeys.allSatisfy { range in
      range.allSatisfy { bytes[$0] < 0x80 && bytes[$0] != UInt8(ascii: "\\") }
    }
    guard plain, !keys.isEmpty, keys.allSatisfy({ $0.length > 0 }) else { return nil }
    known = (keys, keys.indices.map { MemberHead(keys[$0], first: $0 == 0) })
    return known
  }

  /// ``take(_:from:elements:dropped:firstKeys:)``'s rows, each written in `Layout` (a walk of its
  /// own for each layout).
  private func takeRows<Layout: RowLayout>(
    _: Layout.Type, _ source: UnsafePointer<UInt8>, _ end: Int, from offset: Int,
    keys: UnsafeBufferPointer<JSONValidator.KeyPattern>, heads: UnsafeBufferPointer<MemberHead>,
    elements: Int, dropped: Int
  ) -> (offset: Int, rows: Int) {
    var at = offset
    var rows = 0
    var closed = 0
    while true {
      if text.count >= most {
        // Set aside at a row's end; when it cannot be, the rows after it are left to the check.
        guard let spool, spool.setAside(text.written) else { break }
        text.count = 0
      }
      let mark = text.count
      var row = RowLine<Layout>(source: source, end: end, offset: at, text: text)
      switch row.take(keys: keys, heads: heads) {
      case .taken:
        text.count = row.written
        at = row.offset
        closed = row.closed
        rows += 1
      case .noRoom,
        .ranOut where row.limited:
        // The row may write more than the room left: made, and the row walked again.
        text.count = mark
        text.grow(toHold: text.capacity + 1)
      case .ranOut:
        text.count = mark
        return finish(at, closed, rows, elements, dropped)
      case .notTaken:
        text.count = mark
        stopped = true
        return finish(at, closed, rows, elements, dropped)
      }
    }
    stopped = true
    return finish(at, closed, rows, elements, dropped)
  }

  /// Notes where the rows taken end: `at` past the `,` after the last, `closed` past its `}`.
  private func finish(_ at: Int, _ closed: Int, _ rows: Int, _ elements: Int, _ dropped: Int)
    -> (offset: Int, rows: Int)
  {
    guard rows > 0 else { return (at, 0) }
    if start == nil {
      // Only its count is used: the rows before are written from the array's start.
      start = JSONElements.Position(count: elements, offset: 0, started: true)
    }
    end = JSONElements.Position(count: elements + rows, offset: closed + dropped, started: true)
    next = at + dropped
    return (at, rows)
  }
}

/// Text set aside and read back in the order it was set aside in (``ArrivingLines/spool``: a
/// temporary file), each piece as it was given.
public protocol HeldTextSpool: AnyObject {
  /// Sets `text` aside after what was; false when it could not be (the caller keeps it).
  func setAside(_ text: UnsafeBufferPointer<UInt8>) -> Bool
  /// The size of each piece set aside, in order.
  var pieces: [Int] { get }
  /// Fills `room` with the text set aside from byte `offset` on.
  func read(into room: UnsafeMutableRawBufferPointer, at offset: Int) throws
}

/// A member's head as rows usually come: its `,` (but the first member's), its key in quotes
/// and its `:`, with no whitespace between; at most nineteen bytes (a key of at most fifteen),
/// compared as three words where a member's bytes are read one token at a time, and written as
/// the bytes compared (ndjson) or as json's line of it (``storeLine(_:)``) in four words.
struct MemberHead {
  /// The head's bytes, the first lowest, and the bits that are the head's.
  private var words: (UInt64, UInt64, UInt64) = (0, 0, 0)
  private var masks: (UInt64, UInt64, UInt64) = (0, 0, 0)
  /// The head as json writes it: its `,`, a line end, two levels' indentation, the key, its `:`
  /// and a space (at most 25 bytes).
  private var line: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
  /// How many bytes it has, and how many json's line of it has.
  let count: Int
  let lineCount: Int
  /// How many more bytes json's line has than the head: the line end, the indentation and the
  /// space after the `:`.
  static var lineExtra: Int { 6 }

  /// The head of the member with `key`, the first member's (no `,`) or another's.
  init(_ key: JSONValidator.KeyPattern, first: Bool) {
    var named: [UInt8] = [UInt8(ascii: "\"")]
    for index in 0..<key.length {
      // The key's bytes and its closing quote.
      named.append(UInt8(truncatingIfNeeded: (index < 8 ? key.low : key.high) >> (8 * (index & 7))))
    }
    named.append(UInt8(ascii: ":"))
    let comma: [UInt8] = first ? [] : [UInt8(ascii: ",")]
    let bytes = comma + named
    let lined = comma + [0x0A] + Array(repeating: UInt8(ascii: " "), count: 4) + named + [0x20]
    count = bytes.count
    lineCount = lined.count
    func word(_ bytes: [UInt8], _ at: Int) -> (word: UInt64, mask: UInt64) {
      var word: UInt64 = 0
      var mask: UInt64 = 0
      for (index, byte) in bytes.dropFirst(at).prefix(8).enumerated() {
        word |= UInt64(byte) << (8 * UInt64(index))
        mask |= 0xFF << (8 * UInt64(index))
      }
      return (word, mask)
    }
    (words.0, masks.0) = word(bytes, 0)
    (words.1, masks.1) = word(bytes, 8)
    (words.2, masks.2) = word(bytes, 16)
    line = (word(lined, 0).word, word(lined, 8).word, word(lined, 16).word, word(lined, 24).word)
  }

  /// Whether the 24 bytes at `source` start with the head.
  @inline(__always)
  func starts(_ source: UnsafePointer<UInt8>) -> Bool {
    let bytes = UnsafeRawPointer(source)
    let first = UInt64(littleEndian: bytes.loadUnaligned(as: UInt64.self)) ^ words.0
    let second =
      UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self)) ^ words.1
    let third =
      UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: 16, as: UInt64.self)) ^ words.2
    return first & masks.0 | second & masks.1 | third & masks.2 == 0
  }

  /// Stores json's line of the head (`lineCount` bytes, 32 written) at `target`. (ndjson writes
  /// the bytes compared, which are the head's.)
  @inline(__always)
  func storeLine(_ target: UnsafeMutablePointer<UInt8>) {
    let bytes = UnsafeMutableRawPointer(target)
    bytes.storeBytes(of: line.0.littleEndian, as: UInt64.self)
    bytes.storeBytes(of: line.1.littleEndian, toByteOffset: 8, as: UInt64.self)
    bytes.storeBytes(of: line.2.littleEndian, toByteOffset: 16, as: UInt64.self)
    bytes.storeBytes(of: line.3.littleEndian, toByteOffset: 24, as: UInt64.self)
  }
}

/// How a ``RowLine`` lays a row out: fixed where it is compiled, so that each layout's walk is
/// code of its own without a test of the layout at every token.
protocol RowLayout {
  /// As `json` indents an element after the first (``ArrivingLines/Layout/indented``), else as
  /// an ndjson line.
  static var indented: Bool { get }
}

/// ndjson's lines.
enum CompactRows: RowLayout {
  static var indented: Bool { false }
}

/// json's indented elements.
enum IndentedRows: RowLayout {
  static var indented: Bool { true }
}

/// One row checked and written in one pass, as an ndjson line or as `json` indents it
/// (``ArrivingLines``).
///
/// The walk reads and writes through pointers (``at``, ``to``) rather than offsets from two
/// bases, which frees the bases' two registers for the walk's own state. Every bound is the
/// same as an offset's was: a read of `n` bytes is made only when ``stop`` is at least `n` past
/// ``at`` (``has(_:)``), and ``stop`` is never past the bytes' end nor past where the room
/// written into ends (the writing never runs ahead of the reading by more than the room's
/// slack, as before: ``ahead``).
struct RowLine<Layout: RowLayout> {
  /// The bytes read and the text's room written (made before the walk: ``limited``), kept to
  /// give ``offset`` and ``written`` back as offsets (the buffer itself is not held, which cost
  /// a retain and a release a row).
  private let source: UnsafePointer<UInt8>
  private let base: UnsafeMutablePointer<UInt8>
  /// Where the reading stands; past the row's `,` once it is taken.
  private var at: UnsafePointer<UInt8>
  /// Where reading stops, so that what is written never passes the text's room: the bytes'
  /// end, or before it when the room left holds less (``limited``).
  private let stop: UnsafePointer<UInt8>
  /// Reading stops before the bytes' end, where the room left ended: a row that ran out may
  /// fit in more room.
  let limited: Bool
  /// Where the writing stands in the text's room (its count once the row is taken).
  private var to: UnsafeMutablePointer<UInt8>
  /// The most the writing may stand past the reading, as addresses (`to - at`), so that the
  /// bytes still to read fit in the room left: a line end's indentation is the writing that
  /// gains on it (as json writes a row, less what its members' heads may gain:
  /// ``take(keys:heads:)``).
  private var ahead: Int
  /// Just past the row's `}`, once it is read.
  private var closedAt: UnsafePointer<UInt8>
  /// Written as `json` indents it, else as an ndjson line.
  private var indented: Bool { Layout.indented }

  /// A row at `offset` of the `end` bytes at `source`.
  init(source: UnsafePointer<UInt8>, end: Int, offset: Int, text: JSONTextBuffer) {
    self.source = source
    base = text.base
    at = source + offset
    to = text.base + text.count
    closedAt = source
    // Each byte read writes at most one (a line end's indentation is counted where it is
    // written), and a token writes at most `slack` bytes past what it read: so reading stops
    // where the room does; as json indents it, at half of it, the other half for indentation.
    let room = text.capacity - Self.slack - text.count
    let reach = Layout.indented ? room / 2 : room
    let last = reach < end - offset ? offset + max(reach, 0) : end
    stop = source + last
    limited = last < end
    // `out - offset <= capacity - slack - last` as the offsets were, moved to addresses.
    ahead =
      text.capacity - Self.slack - last + (Int(bitPattern: text.base) - Int(bitPattern: source))
  }

  /// Where the reading stands in the bytes; past the row's `,` once it is taken.
  var offset: Int { at - source }
  /// The text's count once the row is taken.
  var written: Int { to - base }
  /// Just past the row's `}`, once it is read.
  var closed: Int { closedAt - source }

  enum Outcome {
    /// Checked, written, and followed by a `,`.
    case taken
    /// The bytes end first (more may come).
    case ranOut
    /// Not a row taken here (or not JSON): the check reads it.
    case notTaken
    /// What it writes may not fit in the room left: taken in more room.
    case noRoom
  }

  /// The most written past what was read: a line end and the indentation of 66 levels with the
  /// space after a key, or a word stored whole past a token's end, with bytes to spare.
  private static var slack: Int { 160 }

  /// Whether `count` bytes are left to read from `at` before `stop` (the one bound of every
  /// read: `at[0..<count]` is then in the bytes).
  @_transparent
  private func has(_ count: Int) -> Bool {
    count <= stop - at
  }

  /// The byte at `at` after whitespace, or nil at the end.
  @inline(__always)
  private mutating func next() -> UInt8? {
    guard at < stop else { return nil }
    let byte = at.pointee
    if byte > 0x20 { return byte }
    return pastWhitespace(byte)
  }

  /// ``next()`` at whitespace or a control (`byte`, at `at`): the byte after the whitespace,
  /// or nil at the end.
  @inline(__always)
  private mutating func pastWhitespace(_ byte: UInt8) -> UInt8? {
    // One space before a token, as jsonb's text puts one after each `,` and `:`: one step.
    if byte == 0x20 && has(2) && at[1] > 0x20 {
      at += 1
      return at.pointee
    }
    while at < stop {
      let byte = at.pointee
      if byte > 0x20 || !JSONRowWriter.isWhitespace(byte) { return byte }
      at += 1
    }
    return nil
  }

  @inline(__always)
  private mutating func put(_ byte: UInt8) {
    to.pointee = byte
    to += 1
  }

  /// How far the writing stands past the reading, as addresses (``ahead``).
  @inline(__always)
  private var gained: Int { Int(bitPattern: to) &- Int(bitPattern: at) }

  /// In the indented layout, a line end and the indentation of `level` levels (two spaces
  /// each): more written than read, so false (nothing written) when the room left after it
  /// would no longer hold a byte for each byte still to read (``ahead``; the row is walked again
  /// in more room). A key's space after its `:` is counted here, as a key follows a line end.
  /// The line end and fifteen spaces are stored as two words (seven levels), more eight at a time.
  @inline(__always)
  private mutating func newline(_ level: Int) -> Bool {
    guard indented else { return true }
    let spaces = 2 &* level
    guard gained &+ 2 &+ spaces <= ahead else { return false }
    let target = UnsafeMutableRawPointer(to)
    target.storeBytes(of: (0x2020_2020_2020_200A as UInt64).littleEndian, as: UInt64.self)
    target.storeBytes(of: 0x2020_2020_2020_2020 as UInt64, toByteOffset: 8, as: UInt64.self)
    if spaces > 15 {
      var done = 15
      repeat {
        target.storeBytes(
          of: 0x2020_2020_2020_2020 as UInt64, toByteOffset: 1 &+ done, as: UInt64.self)
        done &+= 8
      } while done < spaces
    }
    to += 1 &+ spaces
    return true
  }

  /// Checks and writes the row at the offset, whose members' keys are `keys` (their heads
  /// `heads`) in order.
  ///
  /// The walk runs on a copy, stored back once at its end: `self` here is the caller's memory,
  /// so each move of the pointers on it would be stored there (after every byte written, which
  /// may be any memory); on a local whose address no call takes (the walk and every step of it
  /// inlined) they stay in registers.
  mutating func take(
    keys: UnsafeBufferPointer<JSONValidator.KeyPattern>, heads: UnsafeBufferPointer<MemberHead>
  ) -> Outcome {
    var walk = self
    let outcome = walk.walk(keys: keys, heads: heads)
    // What the caller reads, field by field: stored back whole, the copy is folded into `self`.
    at = walk.at
    to = walk.to
    closedAt = walk.closedAt
    return outcome
  }

  /// ``take(keys:heads:)``'s walk.
  @inline(__always)
  private mutating func walk(
    keys: UnsafeBufferPointer<JSONValidator.KeyPattern>, heads: UnsafeBufferPointer<MemberHead>
  ) -> Outcome {
    guard let open = next() else { return .ranOut }
    guard open == UInt8(ascii: "{") else { return .notTaken }
    // An element after the first, one level deep: `json` writes it after a `,`.
    if indented {
      // The members' heads that come as rows usually write them (``MemberHead/storeLine(_:)``)
      // are not measured one by one: the most they gain on the reading is set apart here, so
      // that every other line end measures against what is left.
      ahead &-= MemberHead.lineExtra &* heads.count
      guard gained <= ahead else { return .noRoom }
      put(UInt8(ascii: ","))
      guard newline(1) else { return .noRoom }
    }
    put(open)
    at += 1
    for index in heads.indices {
      let head = heads[index]
      if has(24) && head.starts(at) {
        // The head as rows usually come: its `,`, the key and the `:` with no whitespace.
        if indented {
          head.storeLine(to)
          to += head.lineCount
        } else {
          // The bytes just compared, which are the head's (the head's own words would be read
          // again from memory).
          let from = UnsafeRawPointer(at)
          let target = UnsafeMutableRawPointer(to)
          target.storeBytes(of: from.loadUnaligned(as: SIMD16<UInt8>.self), as: SIMD16<UInt8>.self)
          target.storeBytes(
            of: from.loadUnaligned(fromByteOffset: 16, as: UInt64.self), toByteOffset: 16,
            as: UInt64.self)
          to += head.count
        }
        at += head.count
      } else {
        let outcome = memberHead(keys[index], first: index == 0)
        guard case .taken = outcome else { return outcome }
      }
      // The member's value: a scalar read here, a container by ``container(_:)``.
      guard let byte = next() else { return .ranOut }
      let outcome: Outcome
      switch byte {
      case UInt8(ascii: "\""): outcome = string()
      case UInt8(ascii: "{"), UInt8(ascii: "["):
        let walked = Self.container(byte, at: at, to: to, stop: stop, ahead: ahead)
        at = walked.at
        to = walked.to
        outcome = walked.outcome
      case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"): outcome = literal(byte)
      case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): outcome = number()
      default: return .notTaken
      }
      guard case .taken = outcome else { return outcome }
    }
    guard let close = next() else { return .ranOut }
    guard close == UInt8(ascii: "}") else { return .notTaken }
    if indented {
      guard newline(1) else { return .noRoom }
      put(close)
    } else {
      put(close)
      put(0x0A)
    }
    at += 1
    closedAt = at
    // Only a row followed by a `,` is taken: the check goes on from there as from any `,`.
    guard let comma = next() else { return .ranOut }
    guard comma == UInt8(ascii: ",") else { return .notTaken }
    at += 1
    return .taken
  }

  /// A member's `,` (but the first's), its key, against the first row's, and its `:`, each
  /// after any whitespace: the head of a member that ``MemberHead`` does not match.
  @_transparent
  private mutating func memberHead(_ key: JSONValidator.KeyPattern, first: Bool) -> Outcome {
    if !first {
      guard let comma = next() else { return .ranOut }
      guard comma == UInt8(ascii: ",") else { return .notTaken }
      put(comma)
      at += 1
    }
    guard newline(2) else { return .noRoom }
    guard let quote = next() else { return .ranOut }
    guard quote == UInt8(ascii: "\"") else { return .notTaken }
    // The key and its closing quote, against the first row's in two words (byte by byte in
    // the body's last sixteen bytes).
    put(quote)
    if has(17) {
      let low = UnsafeRawPointer(at + 1).loadUnaligned(as: UInt64.self)
      let high = UnsafeRawPointer(at + 9).loadUnaligned(as: UInt64.self)
      guard UInt64(littleEndian: low) & key.lowMask == key.low,
        UInt64(littleEndian: high) & key.highMask == key.high
      else { return .notTaken }
      UnsafeMutableRawPointer(to).storeBytes(of: low, as: UInt64.self)
      UnsafeMutableRawPointer(to + 8).storeBytes(of: high, as: UInt64.self)
    } else {
      for index in 0..<key.length {
        guard has(index + 2) else { return .ranOut }
        let word = (index < 8 ? key.low : key.high) >> UInt64(8 * (index & 7))
        guard at[1 + index] == UInt8(truncatingIfNeeded: word) else { return .notTaken }
        to[index] = at[1 + index]
      }
    }
    to += key.length
    at += 1 + key.length
    guard let colon = next() else { return .ranOut }
    guard colon == UInt8(ascii: ":") else { return .notTaken }
    put(colon)
    if indented { put(UInt8(ascii: " ")) }
    at += 1
    return .taken
  }

  /// Checks and writes a member's value that is an object or an array, at its `open`ing byte:
  /// what ``JSONValidator`` accepts, but a string with an escape or a C1 control and nesting
  /// past 64 (not taken). Each place expects what the grammar allows there, read at once: a
  /// key and its `:` in an object, then a value, then a `,` or the close. One loop and no call
  /// (inlined in the row's walk, the reading and writing places stay in registers): the
  /// containers open are a count and a bit each, set for an object.
  @inline(never)
  private static func container(
    _ open: UInt8, at: UnsafePointer<UInt8>, to: UnsafeMutablePointer<UInt8>,
    stop: UnsafePointer<UInt8>, ahead: Int
  ) -> (outcome: Outcome, at: UnsafePointer<UInt8>, to: UnsafeMutablePointer<UInt8>) {
    var walk = RowLine(at: at, to: to, stop: stop, ahead: ahead)
    let outcome = walk.container(open)
    return (outcome, walk.at, walk.to)
  }

  /// A walk of a container's value alone (``container(_:at:to:stop:ahead:)``).
  private init(
    at: UnsafePointer<UInt8>, to: UnsafeMutablePointer<UInt8>, stop: UnsafePointer<UInt8>,
    ahead: Int
  ) {
    source = at
    base = to
    self.at = at
    self.to = to
    self.stop = stop
    self.ahead = ahead
    limited = false
    closedAt = at
  }

  @inline(__always)
  private mutating func container(_ open: UInt8) -> Outcome {
    // Bit `n` set: the container `n` deep (the member's value is 0) is an object.
    var objects: UInt64 = 0
    // How many containers are open around where the reading stands.
    var depth = 0
    var byte = open
    while true {
      // A value at `at`, `byte` its first, inside `depth` containers.
      if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") {
        guard depth < 64 else { return .notTaken }
        put(byte)
        at += 1
        guard let first = next() else { return .ranOut }
        if first != byte &+ 2 {
          let object = byte == UInt8(ascii: "{")
          let bit: UInt64 = 1 &<< UInt64(depth)
          objects = object ? objects | bit : objects & ~bit
          depth &+= 1
          var stop = Outcome.taken
          guard let value = place(depth, object: object, &stop) else { return stop }
          byte = value
          continue
        }
        // An empty one is written whole.
        put(first)
        at += 1
      } else {
        let outcome: Outcome
        switch byte {
        case UInt8(ascii: "\""): outcome = string()
        case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"): outcome = literal(byte)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): outcome = number()
        default: return .notTaken
        }
        guard case .taken = outcome else { return outcome }
      }
      // The value ended: a `,` and the next value, or the close of the container around it
      // (and of each around that one that ends with it).
      while true {
        guard depth > 0 else { return .taken }
        guard let after = next() else { return .ranOut }
        at += 1
        let object = objects &>> UInt64(depth &- 1) & 1 != 0
        if after == UInt8(ascii: ",") {
          put(after)
          var stop = Outcome.taken
          guard let value = place(depth, object: object, &stop) else { return stop }
          byte = value
          break
        }
        guard after == (object ? UInt8(ascii: "}") : UInt8(ascii: "]")) else { return .notTaken }
        depth &-= 1
        guard newline(depth &+ 2) else { return .noRoom }
        put(after)
      }
    }
  }

  /// Whether the byte at `at` after whitespace is `expected` (not read past); else `stop` is
  /// why not.
  @_transparent
  private mutating func comes(_ expected: UInt8, _ stop: inout Outcome) -> Bool {
    guard let byte = next() else {
      stop = .ranOut
      return false
    }
    guard byte == expected else {
      stop = .notTaken
      return false
    }
    return true
  }

  /// The start of a member or an element inside `depth` containers, the innermost an `object`
  /// or an array: its line, a member's key and `:`; the value's first byte, or nil and `stop`
  /// the outcome that ends the walk.
  @_transparent
  private mutating func place(_ depth: Int, object: Bool, _ stop: inout Outcome) -> UInt8? {
    guard newline(depth &+ 2) else {
      stop = .noRoom
      return nil
    }
    if object {
      guard comes(UInt8(ascii: "\""), &stop) else { return nil }
      let key = string()
      guard case .taken = key else {
        stop = key
        return nil
      }
      guard comes(UInt8(ascii: ":"), &stop) else { return nil }
      put(UInt8(ascii: ":"))
      if indented { put(UInt8(ascii: " ")) }
      at += 1
    }
    guard let byte = next() else {
      stop = .ranOut
      return nil
    }
    return byte
  }

  /// A string at its opening quote: no raw control, well-formed UTF-8; an escape or a C1
  /// control is not taken. Copied sixteen bytes at a time (eight in the body's last sixteen),
  /// each stored before it is looked at.
  ///
  /// Inlined where it is used (`@_transparent`), as `number()` and `literal(_:)` are:
  /// `@inline(__always)` left each a call of its own in the specialized walks (a call, and its
  /// fields stored and read again, about 25 instructions a token).
  @_transparent
  private mutating func string() -> Outcome {
    put(UInt8(ascii: "\""))
    at += 1
    while true {
      if has(16) {
        let chunk = UnsafeRawPointer(at).loadUnaligned(as: SIMD16<UInt8>.self)
        UnsafeMutableRawPointer(to).storeBytes(of: chunk, as: SIMD16<UInt8>.self)
        let run = Self.plainRun(chunk)
        at += run
        to += run
        if run == 16 { continue }
      } else if has(8) {
        let word = UnsafeRawPointer(at).loadUnaligned(as: UInt64.self)
        UnsafeMutableRawPointer(to).storeBytes(of: word, as: UInt64.self)
        let value = UInt64(littleEndian: word)
        let flags =
          ByteWord.below(0x20, in: value) | ByteWord.equal(0x22, in: value)
          | ByteWord.equal(0x5C, in: value) | value & ByteWord.highs
        if flags == 0 {
          at += 8
          to += 8
          continue
        }
        let run = flags.trailingZeroBitCount >> 3
        at += run
        to += run
      } else if !has(1) {
        return .ranOut
      }
      let byte = at.pointee
      if byte == UInt8(ascii: "\"") {
        put(byte)
        at += 1
        return .taken
      }
      // An escape (written again by the writer), a control (not JSON).
      if byte == UInt8(ascii: "\\") || byte < 0x20 { return .notTaken }
      if byte < 0x80 {
        put(byte)
        at += 1
        continue
      }
      let length: Int
      switch byte {
      case 0xC2...0xDF: length = 2
      case 0xE0...0xEF: length = 3
      case 0xF0...0xF4: length = 4
      default: return .notTaken
      }
      guard has(length) else { return .ranOut }
      let second = at[1]
      let low: UInt8 =
        switch byte {
        case 0xC2: 0xA0  // U+0080...U+009F, the C1 controls, are escaped by the writer
        case 0xE0: 0xA0
        case 0xF0: 0x90
        default: 0x80
        }
      let high: UInt8 = byte == 0xED ? 0x9F : byte == 0xF4 ? 0x8F : 0xBF
      guard second >= low, second <= high else { return .notTaken }
      for index in 2..<length where at[index] & 0xC0 != 0x80 { return .notTaken }
      for index in 0..<length { to[index] = at[index] }
      to += length
      at += length
    }
  }

  /// How many of `chunk`'s bytes come before the first that is a control, a `"`, a `\` or past
  /// ASCII (16 when none is). Bytewise arithmetic (one SSE2 instruction each on x86-64): a
  /// byte's high bit is set by `byte - 0x20` when it is a control, by `byte ^ q - 1` when it is
  /// `q`, and by itself past ASCII; none of the three sets it for another byte below 0x80.
  @inline(__always)
  private static func plainRun(_ chunk: SIMD16<UInt8>) -> Int {
    let quote = chunk ^ SIMD16(repeating: UInt8(ascii: "\""))
    let backslash = chunk ^ SIMD16(repeating: UInt8(ascii: "\\"))
    let marked =
      (chunk &- SIMD16(repeating: 0x20)) | chunk | (quote &- SIMD16(repeating: 1))
      | (backslash &- SIMD16(repeating: 1))
    let halves = unsafeBitCast(marked, to: SIMD2<UInt64>.self)
    let low = UInt64(littleEndian: halves[0]) & ByteWord.highs
    let high = UInt64(littleEndian: halves[1]) & ByteWord.highs
    if low | high == 0 { return 16 }
    return low != 0 ? low.trailingZeroBitCount &>> 3 : 8 &+ high.trailingZeroBitCount &>> 3
  }

  /// `true`, `false` or `null` at `at`.
  @_transparent
  private mutating func literal(_ first: UInt8) -> Outcome {
    // The literal's bytes, the first lowest.
    let (word, count): (UInt64, Int) =
      first == UInt8(ascii: "t")
      ? (0x6575_7274, 4) : first == UInt8(ascii: "f") ? (0x65_736C_6166, 5) : (0x6C6C_756E, 4)
    guard has(8) else {
      for index in 0..<count {
        guard has(index + 1) else { return .ranOut }
        guard UInt64(at[index]) == word >> UInt64(8 * index) & 0xFF else { return .notTaken }
      }
      for index in 0..<count { to[index] = at[index] }
      to += count
      at += count
      return .taken
    }
    let bytes = UnsafeRawPointer(at).loadUnaligned(as: UInt64.self)
    let mask: UInt64 = (1 << UInt64(count * 8)) &- 1
    guard UInt64(littleEndian: bytes) & mask == word else { return .notTaken }
    UnsafeMutableRawPointer(to).storeBytes(of: bytes, as: UInt64.self)
    to += count
    at += count
    return .taken
  }

  /// Just past the digits from `start` on (`start` when there are none): eight bytes at a time
  /// while eight are left before `stop`, the first byte that is not a digit found in the word.
  @inline(__always)
  private func digits(from start: UnsafePointer<UInt8>) -> UnsafePointer<UInt8> {
    var from = start
    while 8 <= stop - from {
      let word = UInt64(littleEndian: UnsafeRawPointer(from).loadUnaligned(as: UInt64.self))
      // Below `0` (exact for the first such byte), or above `9`: 0x3A to 0x7F carry into the
      // high bit when 0x46 is added to their low seven bits, 0x80 and up have it already.
      let other =
        ByteWord.below(0x30, in: word)
        | ((word & 0x7F7F_7F7F_7F7F_7F7F) &+ 0x4646_4646_4646_4646 | word) & ByteWord.highs
      if other != 0 { return from + other.trailingZeroBitCount >> 3 }
      from += 8
    }
    while from < stop && from.pointee &- 0x30 < 10 { from += 1 }
    return from
  }

  /// A number at `at` (RFC 8259's grammar), followed by a byte that may end it.
  @_transparent
  private mutating func number() -> Outcome {
    if has(8) {
      // As numbers usually come: digits without a sign or an exponent, a fraction or not, and
      // the byte that ends them, all in the eight bytes at `at`; anything else is read below.
      let word = UInt64(littleEndian: UnsafeRawPointer(at).loadUnaligned(as: UInt64.self))
      // Each byte's high bit set when it is not a digit: for its low seven bits, `+ 0x50`
      // reaches 0x80 from `0` up and `+ 0x46` from past `9`, no byte carrying into the next.
      let low = word & 0x7F7F_7F7F_7F7F_7F7F
      let other =
        (~(low &+ 0x5050_5050_5050_5050) | (low &+ 0x4646_4646_4646_4646) | word)
        & ByteWord.highs
      let first = UInt8(truncatingIfNeeded: word)
      var length = other.trailingZeroBitCount &>> 3
      var after = UInt8(truncatingIfNeeded: word &>> UInt64(length &<< 3))
      if after == UInt8(ascii: "."), length > 0 {
        let fraction = (other & (other &- 1)).trailingZeroBitCount &>> 3
        if fraction > length &+ 1 {
          length = fraction
          after = UInt8(truncatingIfNeeded: word &>> UInt64(length &<< 3))
        }
      }
      // A leading `0` only before the fraction or the end; `length` 8 when no byte ended them.
      if length < 8, length > 0, first != UInt8(ascii: "0") || other & 0x8000 != 0,
        after != UInt8(ascii: "."), JSONRowWriter.endsScalar(after)
      {
        UnsafeMutableRawPointer(to).storeBytes(of: word.littleEndian, as: UInt64.self)
        to += length
        at += length
        return .taken
      }
    }
    let start = at
    var from = at
    if from < stop && from.pointee == UInt8(ascii: "-") { from += 1 }
    guard from < stop else { return .ranOut }
    if from.pointee == UInt8(ascii: "0") {
      from += 1
    } else {
      guard from.pointee &- 0x31 < 9 else { return .notTaken }
      from = digits(from: from + 1)
    }
    if from < stop && from.pointee == UInt8(ascii: ".") {
      let first = from + 1
      from = digits(from: first)
      guard from > first else { return from < stop ? .notTaken : .ranOut }
    }
    if from < stop && from.pointee | 0x20 == UInt8(ascii: "e") {
      from += 1
      if from < stop && (from.pointee == UInt8(ascii: "+") || from.pointee == UInt8(ascii: "-")) {
        from += 1
      }
      let first = from
      from = digits(from: first)
      guard from > first else { return from < stop ? .notTaken : .ranOut }
    }
    // The number must be followed by what may end it (more digits may still come).
    guard from < stop else { return .ranOut }
    guard JSONRowWriter.endsScalar(from.pointee) else { return .notTaken }
    let count = from - start
    if count <= 16 && 16 <= stop - start {
      let target = UnsafeMutableRawPointer(to)
      target.storeBytes(of: UnsafeRawPointer(start).loadUnaligned(as: UInt64.self), as: UInt64.self)
      target.storeBytes(
        of: UnsafeRawPointer(start + 8).loadUnaligned(as: UInt64.self), toByteOffset: 8,
        as: UInt64.self)
    } else {
      to.update(from: start, count: count)
    }
    to += count
    at = from
    return .taken
  }
}
