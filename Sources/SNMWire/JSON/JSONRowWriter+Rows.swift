extension JSONRowWriter {
  /// The first row's keys, learned by a walk over an array's rows, so that a later row with the
  /// same keys, byte for byte and in the same order, is written a member at a time: the member's
  /// separator, line, indentation and key written as one run made once
  /// (``prefixes(indent:depth:)``), its key compared with the first row's instead of scanned, and
  /// only its value copied from the bytes (``copyRow(_:keys:into:indent:depth:)``). Held once per
  /// walk: its size is the first row's keys', whatever the number of rows.
  ///
  /// Its fields are not checked for exclusive access at run time (as ``JSONTextBuffer``'s): one
  /// walk uses it, and the check at each member cost more than the member.
  final class RowKeys {
    /// What `copyRow` needs of a member: its key and closing quote as two words to compare
    /// (``JSONValidator/KeyPattern``; `length` 0 for a key longer than fifteen bytes), and where
    /// its text is in `text`.
    struct Member {
      var pattern: JSONValidator.KeyPattern
      var start = 0
      var count = 0
    }

    /// Each key's bytes followed by its closing quote (the longer keys are compared with these).
    let quoted: [[UInt8]]
    /// The members, in order.
    @exclusivity(unchecked) private(set) var members: UnsafeMutablePointer<Member>
    let count: Int
    /// The text written before each member's value, all members' one after the other, each
    /// padded to whole words (a run is stored a word at a time), then the text after the last
    /// value (the line, its indentation and `}`), for `indent` and `depth`.
    @exclusivity(unchecked) private(set) var text: UnsafeMutablePointer<UInt8>
    /// Where the text after the last value starts in `text`, and its length.
    @exclusivity(unchecked) private(set) var closing = (start: 0, count: 0)
    /// All the text a row takes but its values.
    @exclusivity(unchecked) private(set) var total = 0
    @exclusivity(unchecked) private var madeFor = (indent: -1, depth: -1)
    /// Rows the quick way handed back (then written the usual way): past a few, it is not tried.
    @exclusivity(unchecked) var refused = 0

    /// The keys of a row as the parser reads them, when each is printable ASCII with no quote or
    /// backslash (then the key's bytes are what the writer writes); nil otherwise.
    init?(_ keys: [String]) {
      guard !keys.isEmpty else { return nil }
      var quoted: [[UInt8]] = []
      for key in keys {
        let bytes = Array(key.utf8)
        guard bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != 0x22 && $0 != 0x5C }) else {
          return nil
        }
        quoted.append(bytes + [UInt8(ascii: "\"")])
      }
      self.quoted = quoted
      count = quoted.count
      members = .allocate(capacity: quoted.count)
      for (index, key) in quoted.enumerated() {
        let pattern = key.withUnsafeBufferPointer {
          JSONValidator.KeyPattern($0, 0..<key.count - 1)
        }
        (members + index).initialize(to: Member(pattern: pattern))
      }
      text = .allocate(capacity: 8)
    }

    deinit {
      members.deallocate()
      text.deallocate()
    }

    /// Makes the members' texts for rows written indented by `indent` (0: compact) as if
    /// `depth` levels deep, unless made for those already.
    @inline(__always)
    func prefixes(indent: Int, depth: Int) {
      if madeFor == (indent, depth) { return }
      makePrefixes(indent: indent, depth: depth)
    }

    private func makePrefixes(indent: Int, depth: Int) {
      madeFor = (indent, depth)
      var made: [UInt8] = []
      let line = indent > 0 ? [0x0A] + [UInt8](repeating: 0x20, count: indent * (depth + 1)) : []
      for (index, key) in quoted.enumerated() {
        let start = made.count
        made.append(index == 0 ? UInt8(ascii: "{") : UInt8(ascii: ","))
        made += line
        made.append(UInt8(ascii: "\""))
        made += key
        made.append(UInt8(ascii: ":"))
        if indent > 0 { made.append(UInt8(ascii: " ")) }
        members[index].start = start
        members[index].count = made.count - start
        while made.count % 8 != 0 { made.append(0) }
      }
      let start = made.count
      if indent > 0 { made += [0x0A] + [UInt8](repeating: 0x20, count: indent * depth) }
      made.append(UInt8(ascii: "}"))
      closing = (start, made.count - start)
      total = made.count
      while made.count % 8 != 0 { made.append(0) }
      text.deallocate()
      text = .allocate(capacity: made.count)
      text.initialize(from: made, count: made.count)
    }
  }

  /// Writes the row (an object) at `parser`'s offset as ``copyValue(_:into:indent:depth:around:)``
  /// writes it, when its keys are `keys`' byte for byte and in order and no whitespace stands
  /// where a row from PostgREST has none (around `:` and `,` but one space after them): each
  /// member's text written from `keys` and its value copied (a nested value and a string with
  /// an escape or a C1 control written the usual way). True when written, the offset just past
  /// the row; false, with `text` and the offset as they were, for any other row.
  ///
  /// For bytes already validated (``JSONValidator``).
  ///
  /// - Throws: ``JSONParseError`` where a nested value or a string stops being JSON.
  static func copyRow(
    _ parser: inout JSONParser, keys: RowKeys, into text: JSONTextBuffer, indent: Int?,
    depth: Int
  ) throws(JSONParseError) -> Bool {
    parser.skipWhitespace()
    let bytes = parser.bytes
    guard let source = bytes.baseAddress else { return false }
    let rowStart = parser.offset
    let mark = text.count
    let end = bytes.count
    guard rowStart < end, source[rowStart] == UInt8(ascii: "{") else { return false }
    keys.prefixes(indent: indent ?? 0, depth: depth)
    let members = keys.members
    let prefixes = keys.text
    let last = keys.count - 1
    // Room for all the row's text but its values, and a word to spare: made once here, and
    // again wherever a value grows the buffer.
    let slack = keys.total + 16
    if mark + slack > text.capacity { text.grow(toHold: mark + slack) }
    var out = mark
    var room = text.capacity
    var base = text.base
    var index = rowStart
    // Stores `count` bytes of a padded run a word at a time.
    @inline(__always)
    func store(_ run: UnsafePointer<UInt8>, _ count: Int) {
      var done = 0
      repeat {
        UnsafeMutableRawPointer(base + out + done).storeBytes(
          of: UnsafeRawPointer(run + done).load(as: UInt64.self), as: UInt64.self)
        done += 8
      } while done < count
      out += count
    }
    var member = 0
    while true {
      // `{` or `,` (and one space after `,`) is at `index`, then the key.
      index += 1
      if source[index] == 0x20 { index += 1 }
      let entry = members + member
      let length = entry.pointee.pattern.length
      if length > 0 && index + 17 <= end {
        guard source[index] == UInt8(ascii: "\""),
          ByteWord.load(bytes, at: index + 1) & entry.pointee.pattern.lowMask
            == entry.pointee.pattern.low,
          ByteWord.load(bytes, at: index + 9) & entry.pointee.pattern.highMask
            == entry.pointee.pattern.high
        else { break }
        index += 1 + length
      } else {
        let key = keys.quoted[member]
        guard index + 1 + key.count <= end, source[index] == UInt8(ascii: "\""),
          key.elementsEqual(UnsafeBufferPointer(rebasing: bytes[index + 1..<index + 1 + key.count]))
        else { break }
        index += 1 + key.count
      }
      guard index + 1 < end, source[index] == UInt8(ascii: ":") else { break }
      index += 1
      if source[index] == 0x20 { index += 1 }
      guard index < end else { break }
      let first = source[index]
      guard first > 0x20 else { break }
      store(prefixes + entry.pointee.start, entry.pointee.count)
      if first == UInt8(ascii: "\"") {
        let quote = index
        let valueMark = out
        base[out] = first
        out += 1
        index += 1
        var plain = true
        while true {
          copyToStop(
            &index, &out, source: source, end: end, text: text, room: &room, base: &base,
            slack: slack, flags: stringStops
          ) { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C || $0 == 0xC2 }
          guard index < end else {
            plain = false
            break
          }
          let stop = source[index]
          if stop == UInt8(ascii: "\"") {
            base[out] = stop
            out += 1
            index += 1
            break
          }
          // 0xC2 leads a C1 control only before 0x80...0x9F; else it is copied as it is.
          if stop == 0xC2 && !(index + 1 < end && source[index + 1] &- 0x80 < 0x20) {
            base[out] = stop
            out += 1
            index += 1
            continue
          }
          plain = false
          break
        }
        if !plain {
          // An escape or a C1 control: the writer's own way, from the quote.
          text.count = valueMark
          parser.offset = quote
          try copyRewritten(&parser, into: text, indent: indent, depth: depth + 1)
          if text.count + slack > text.capacity { text.grow(toHold: text.count + slack) }
          out = text.count
          room = text.capacity
          base = text.base
          index = parser.offset
        }
      } else if first == UInt8(ascii: "{") || first == UInt8(ascii: "[") {
        text.count = out
        parser.offset = index
        try copyValue(&parser, into: text, indent: indent, depth: depth + 1, around: 1)
        if text.count + slack > text.capacity { text.grow(toHold: text.count + slack) }
        out = text.count
        room = text.capacity
        base = text.base
        index = parser.offset
      } else {
        copyToStop(
          &index, &out, source: source, end: end, text: text, room: &room, base: &base,
          slack: slack, flags: scalarEnds, stops: endsScalar)
      }
      // The `,` before the next member, or the row's `}`.
      guard index < end else { break }
      if member == last {
        guard source[index] == UInt8(ascii: "}") else { break }
        store(prefixes + keys.closing.start, keys.closing.count)
        text.count = out
        parser.offset = index + 1
        return true
      }
      guard source[index] == UInt8(ascii: ",") else { break }
      member += 1
    }
    // Not a row this way writes: handed back as it was.
    text.count = mark
    parser.offset = rowStart
    return false
  }
}

extension JSONRowWriter {
  /// Copies the bytes from `from` (in `source`, `end` long) to `to` (in `base`, `room` long, of
  /// `text`) up to the first that `flags` flags in its word (`stops` for the last few bytes), or
  /// to the end: a word at a time, each word stored before it is looked at and the output moved
  /// on only over the bytes before its first stop; grows `text` where a word has no room (by
  /// `slack` more). Leaves room for `slack` bytes more at `to` than it had, at least one.
  @inline(__always)
  static func copyToStop(
    _ from: inout Int, _ to: inout Int, source: UnsafePointer<UInt8>, end: Int,
    text: JSONTextBuffer, room: inout Int, base: inout UnsafeMutablePointer<UInt8>,
    slack: Int, flags: (UInt64) -> UInt64, stops: (UInt8) -> Bool
  ) {
    while true {
      if to + slack > room {
        text.count = to
        text.grow(toHold: to + slack)
        room = text.capacity
        base = text.base
      }
      guard from + 8 <= end else {
        while from < end && !stops(source[from]) {
          base[to] = source[from]
          from += 1
          to += 1
        }
        return
      }
      let word = UnsafeRawPointer(source + from).loadUnaligned(as: UInt64.self)
      UnsafeMutableRawPointer(base + to).storeBytes(of: word, as: UInt64.self)
      let flagged = flags(UInt64(littleEndian: word))
      if flagged == 0 {
        from += 8
        to += 8
        continue
      }
      let run = flagged.trailingZeroBitCount >> 3
      from += run
      to += run
      return
    }
  }
}
