/// Writes rows as JSON text straight from bytes ``JSONValidator`` has checked: each value copied
/// in runs of its bytes into a ``JSONTextBuffer`` (compact or indented as ``JSONWriter`` writes
/// its parsed form), no value built. The parser it is handed stands at the value and is left
/// just past it.
///
/// ```swift
/// try JSONRowWriter.copyValue(&parser, into: text, indent: 2, depth: 1)
/// ```
enum JSONRowWriter {
  /// Writes the value at `parser`'s offset as ``JSONParser/rewriteValue(into:depth:around:)``
  /// writes it (compact with `indent` nil, else indented as if `start` levels deep), copying its
  /// strings and scalars from the bytes as runs into `text` after its `count`, and leaves the
  /// offset just past the value. A string with an escape or a C1 control is decoded and written
  /// again, as the writer would. `around` counts the containers open around the value, as for
  /// `rewriteValue`.
  ///
  /// Meant for bytes already validated (``JSONValidator``): on others it throws where it runs out
  /// of them or nests too deep, and may write what the parser would refuse.
  ///
  /// - Throws: ``JSONParseError`` where the bytes stop being JSON.
  static func copyValue(
    _ parser: inout JSONParser, into text: JSONTextBuffer, indent: Int?, depth start: Int,
    around: Int = 0
  ) throws(JSONParseError) {
    parser.skipWhitespace()
    let bytes = parser.bytes
    guard parser.offset < bytes.count else { throw parser.expected("a JSON value") }
    let first = bytes[parser.offset]
    guard first == UInt8(ascii: "{") || first == UInt8(ascii: "[") else {
      // A scalar: the writer's own way (rare: rows are objects).
      try copyRewritten(&parser, into: text, indent: indent, depth: start, around: around)
      return
    }
    guard let source = bytes.baseAddress else { throw parser.expected("a JSON value") }
    let step = indent ?? 0
    var depth = start
    var open = 0
    var out = text.count
    var room = text.capacity
    // The buffer's start in a local, read again only where the buffer grows.
    var base = text.base
    var index = parser.offset
    let end = bytes.count
    // Puts a line end and the indentation of `depth` at `out` (room made by the caller).
    func newline(_ out: inout Int, _ depth: Int) {
      guard step > 0 else { return }
      Self.putLineEnd(base, &out, spaces: step * depth)
    }
    // Room for the most a structural byte writes: two bytes, a line end and its indentation,
    // and the eight to spare (set again where the depth changes).
    var most = 12 + step * (depth + 1)
    // Copies the bytes from `from` to `to` up to the first that `flags` flags in its word
    // (`stops` for the last few bytes), or to the end: a word at a time while it is scanned,
    // each word stored before it is looked at and the output moved on only over the bytes
    // before its first stop. Leaves room for a byte more at `to`.
    func copyToStop(
      _ from: inout Int, _ to: inout Int, flags: (UInt64) -> UInt64, stops: (UInt8) -> Bool
    ) {
      while true {
        if to + 8 > room {
          text.count = to
          text.grow(toHold: to + 8 + most)
          room = text.capacity
          base = text.base
        }
        guard from + 8 <= end else {
          while from < end && !stops(bytes[from]) {
            base[to] = bytes[from]
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
    scan: while true {
      if out + most > room {
        text.count = out
        text.grow(toHold: out + most)
        room = text.capacity
        base = text.base
      }
      guard index < end else {
        parser.offset = index
        text.count = out
        throw parser.expected("a JSON value")
      }
      let byte = bytes[index]
      switch byte {
      case UInt8(ascii: "{"), UInt8(ascii: "["):
        base[out] = byte
        out += 1
        index += 1
        while index < end && Self.isWhitespace(bytes[index]) { index += 1 }
        let closer = byte == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
        if index < end && bytes[index] == closer {
          base[out] = closer
          out += 1
          index += 1
          if open == 0 { break scan }
        } else {
          // The depth as the writer counts it: the containers open around this one.
          guard open + parser.baseDepth + around < JSONParser.maximumDepth else {
            parser.offset = index
            text.count = out
            throw JSONParseError(offset: index, reason: .tooDeep(limit: JSONParser.maximumDepth))
          }
          open += 1
          depth += 1
          most += step
          newline(&out, depth)
        }
      case UInt8(ascii: "}"), UInt8(ascii: "]"):
        open -= 1
        depth -= 1
        most -= step
        newline(&out, depth)
        base[out] = byte
        out += 1
        index += 1
        if open == 0 { break scan }
      case UInt8(ascii: ","):
        base[out] = byte
        out += 1
        index += 1
        // jsonb writes ", " and ": ": the space goes with its separator.
        if index < end && bytes[index] == 0x20 { index += 1 }
        newline(&out, depth)
      case UInt8(ascii: ":"):
        base[out] = byte
        out += 1
        if step > 0 {
          base[out] = UInt8(ascii: " ")
          out += 1
        }
        index += 1
        if index < end && bytes[index] == 0x20 { index += 1 }
      case 0x20, 0x0A, 0x0D, 0x09:
        index += 1
      default:
        // A string, a number or a literal (checked bytes), and the tokens after it while they
        // are a `:` or a `,` and then another string or scalar: a key, its `:` and its value,
        // and the next member's key, in one step each (a row's members are mostly these).
        var from = index
        var to = out
        chain: while true {
          let token = from
          let mark = to
          let first = bytes[from]
          base[to] = first
          from += 1
          to += 1
          if first == UInt8(ascii: "\"") {
            while true {
              copyToStop(&from, &to, flags: Self.stringStops) {
                $0 < 0x20 || $0 == 0x22 || $0 == 0x5C || $0 == 0xC2
              }
              // Unclosed: the writer's own way says so.
              guard from < end else {
                from = -1
                break
              }
              let stop = bytes[from]
              if stop == UInt8(ascii: "\"") {
                base[to] = stop
                from += 1
                to += 1
                break
              }
              // 0xC2 leads a C1 control only before 0x80...0x9F; else it is copied as it is.
              if stop == 0xC2 && !(from + 1 < end && bytes[from + 1] &- 0x80 < 0x20) {
                base[to] = stop
                from += 1
                to += 1
                continue
              }
              // An escape, a control or a C1 control: the writer's own way, from the quote.
              from = -1
              break
            }
            guard from >= 0 else {
              parser.offset = token
              text.count = mark
              try copyRewritten(&parser, into: text, indent: indent, depth: depth)
              out = text.count
              room = text.capacity
              base = text.base
              index = parser.offset
              continue scan
            }
          } else {
            // A number or a literal: up to the next delimiter, copied as a string is.
            copyToStop(&from, &to, flags: Self.scalarEnds, stops: Self.endsScalar)
          }
          guard from < end else { break chain }
          let separator = bytes[from]
          guard separator == UInt8(ascii: ":") || separator == UInt8(ascii: ",") else {
            break chain
          }
          if to + most > room {
            text.count = to
            text.grow(toHold: to + most)
            room = text.capacity
            base = text.base
          }
          base[to] = separator
          to += 1
          from += 1
          // jsonb writes ", " and ": ": the space goes with its separator.
          if from < end && bytes[from] == 0x20 { from += 1 }
          if separator == UInt8(ascii: ",") {
            newline(&to, depth)
          } else if step > 0 {
            base[to] = UInt8(ascii: " ")
            to += 1
          }
          // Another string or scalar goes on here; a container or whitespace, at the top.
          guard from < end else { break chain }
          let next = bytes[from]
          guard next > 0x20, next | 0x20 != UInt8(ascii: "{"), next | 0x20 != UInt8(ascii: "}")
          else { break chain }
        }
        out = to
        index = from
      }
    }
    parser.offset = index
    text.count = out
  }

  /// Puts a line end and `spaces` spaces at `out` in `base` and moves `out` past them (room made
  /// by the caller, with eight bytes to spare: the spaces are stored a word at a time).
  @inline(__always)
  static func putLineEnd(_ base: UnsafeMutablePointer<UInt8>, _ out: inout Int, spaces: Int) {
    base[out] = 0x0A
    var done = 0
    while done < spaces {
      UnsafeMutableRawPointer(base + out + 1 + done).storeBytes(
        of: 0x2020_2020_2020_2020 as UInt64, as: UInt64.self)
      done += 8
    }
    out += 1 + spaces
  }

  /// The value at `parser`'s offset through its `rewriteValue`, appended to `text`.
  static func copyRewritten(
    _ parser: inout JSONParser, into text: JSONTextBuffer, indent: Int?, depth: Int,
    around: Int = 0
  ) throws(JSONParseError) {
    var writer = JSONWriter(indent: indent, reserving: 0)
    try parser.rewriteValue(into: &writer, depth: depth, around: around)
    writer.output.withUnsafeBufferPointer { written in
      text.grow(toHold: text.count + written.count)
      if let source = written.baseAddress {
        (text.base + text.count).update(from: source, count: written.count)
      }
      text.count += written.count
    }
  }

  /// Copies `count` bytes from `source`, where `readable` bytes may be read, to `target`, which
  /// has room for eight bytes more than `count`: a word at a time, so that a short run (a key, a
  /// number) costs a few stores and no call.
  @inline(__always)
  static func copyRun(
    from source: UnsafePointer<UInt8>, count: Int, readable: Int,
    to target: UnsafeMutablePointer<UInt8>
  ) {
    guard count <= 64, readable >= (count + 7) & ~7 else {
      target.update(from: source, count: count)
      return
    }
    var done = 0
    while done < count {
      let word = UnsafeRawPointer(source + done).loadUnaligned(as: UInt64.self)
      UnsafeMutableRawPointer(target + done).storeBytes(of: word, as: UInt64.self)
      done += 8
    }
  }

  /// The high bit of each byte of `word` (the first byte lowest) that stops a plain run of a
  /// string: a quote, a backslash, a control character or 0xC2 (the lead byte of the C1
  /// controls); the lowest flag is exact (a borrow flags only bytes above a match).
  @inline(__always)
  static func stringStops(_ word: UInt64) -> UInt64 {
    ByteWord.below(0x20, in: word) | ByteWord.equal(0x22, in: word)
      | ByteWord.equal(0x5C, in: word) | ByteWord.equal(0xC2, in: word)
  }

  /// The high bit of each byte of `word` (the first byte lowest) that ends a number or a literal
  /// in checked JSON (``endsScalar(_:)``); the lowest flag is exact.
  @inline(__always)
  static func scalarEnds(_ word: UInt64) -> UInt64 {
    ByteWord.below(0x21, in: word) | ByteWord.equal(0x2C, in: word)
      | ByteWord.equal(0x5D, in: word) | ByteWord.equal(0x7D, in: word)
  }

  /// Whether `byte` ends a number or a literal in checked JSON: whitespace, `,`, `]` or `}`.
  @inline(__always)
  static func endsScalar(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: ",") || byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]")
      || byte <= 0x20
  }

  @inline(__always)
  static func isWhitespace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
  }
}
