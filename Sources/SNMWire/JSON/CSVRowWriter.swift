/// Writes rows as csv records straight from bytes ``JSONValidator`` has checked: a row's member
/// values in one pass into the output chunk, as ``CSVField`` writes each field, no value built.
/// The parser it is handed stands at the row and is left just past it.
///
/// ```swift
/// try CSVRowWriter.writeMembers(&parser, into: output, nested: text)
/// ```
enum CSVRowWriter {
  /// Writes the member values of the object at `parser`'s offset into `output`, after what it
  /// holds, as one csv record: each value as ``JSONParser/visitMembers(scratch:key:_:)`` hands it
  /// over, written by ``CSVField/write(_:emptyQuoted:into:)`` (NULL an empty field, the empty
  /// string `""`, a nested value its compact text), the fields separated by commas, no line end.
  /// It leaves the offset just past the object.
  ///
  /// One pass over the bytes, straight into `output`: a string's bytes are copied eight at a
  /// time and only a comma or an escape in it sends it the slower way (quoted, or decoded in
  /// `scratch` first); a nested value is written compact with its quotes doubled as it is read,
  /// unless one of its strings holds an escape or a C1 control (the writer writes those its own
  /// way) or it nests near ``JSONParser/maximumDepth``: then its text is written into `nested` as
  /// ``JSONRowWriter/copyValue(_:into:indent:depth:around:)`` writes it, and quoted from there.
  /// For bytes already validated.
  ///
  /// - Throws: ``JSONParseError`` where the bytes stop being a JSON object.
  static func writeMembers(
    _ parser: inout JSONParser, into output: JSONTextBuffer, nested: JSONTextBuffer
  ) throws(JSONParseError) {
    guard try parser.enterObject() else { return }
    var first = true
    while true {
      try parser.skipKey()
      guard parser.offset < parser.bytes.count else { throw parser.expected("a JSON value") }
      let mark = output.count
      if !first { output.append(UInt8(ascii: ",")) }
      first = false
      do {
        switch parser.bytes[parser.offset] {
        case UInt8(ascii: "\""):
          try writeStringField(&parser, into: output)
        case UInt8(ascii: "{"), UInt8(ascii: "["):
          try writeNestedField(&parser, into: output, nested: nested)
        case UInt8(ascii: "n"):
          try stepOverLiteral(&parser, "null", writing: nil)
        case UInt8(ascii: "t"):
          try stepOverLiteral(&parser, "true", writing: output)
        case UInt8(ascii: "f"):
          try stepOverLiteral(&parser, "false", writing: output)
        default:
          try writeNumberField(&parser, into: output)
        }
      } catch {
        output.count = mark  // a value that fails writes nothing, its comma included
        throw error
      }
      guard try parser.nextMember() else { return }
    }
  }

  /// Steps over `word` at `parser`'s offset, writing it into `output` when given.
  @inline(__always)
  private static func stepOverLiteral(
    _ parser: inout JSONParser, _ word: StaticString, writing output: JSONTextBuffer?
  ) throws(JSONParseError) {
    let bytes = parser.bytes
    let offset = parser.offset
    let length = word.utf8CodeUnitCount
    let start = word.utf8Start
    guard offset + length <= bytes.count, bytes[offset + 1] == start[1],
      bytes[offset + 2] == start[2], bytes[offset + 3] == start[3],
      length == 4 || bytes[offset + 4] == start[4]
    else {
      _ = try parser.consumeWord(word)  // throws where it stops matching, as the parser does
      return
    }
    if let output { appendRun(bytes, from: offset, count: length, into: output) }
    parser.offset += length
  }

  /// A number: its bytes up to the next delimiter (checked JSON), copied as they are.
  @inline(__always)
  private static func writeNumberField(_ parser: inout JSONParser, into output: JSONTextBuffer)
    throws(JSONParseError)
  {
    let bytes = parser.bytes
    let start = parser.offset
    var index = start
    let end = bytes.count
    if index + 8 <= end {
      let word = ByteWord.load(bytes, at: index)
      let flagged =
        ByteWord.below(0x21, in: word) | ByteWord.equal(UInt8(ascii: ","), in: word)
        | ByteWord.equal(UInt8(ascii: "}"), in: word) | ByteWord.equal(UInt8(ascii: "]"), in: word)
      index += flagged == 0 ? 8 : flagged.trailingZeroBitCount >> 3
    }
    while index < end && !JSONRowWriter.endsScalar(bytes[index]) { index += 1 }
    guard index > start else { throw JSONParseError(offset: start, reason: .invalidNumber) }
    appendRun(bytes, from: start, count: index - start, into: output)
    parser.offset = index
  }

  /// Writes the `count` bytes of `bytes` at `start` into `output`, a short run as words (no
  /// call).
  @inline(__always)
  private static func appendRun(
    _ bytes: UnsafeBufferPointer<UInt8>, from start: Int, count: Int, into output: JSONTextBuffer
  ) {
    guard let source = bytes.baseAddress else { return }
    if output.count + count + 8 > output.capacity { output.grow(toHold: output.count + count + 8) }
    JSONRowWriter.copyRun(
      from: source + start, count: count, readable: bytes.count - start,
      to: output.base + output.count)
    output.count += count
  }

  /// A string at `parser`'s offset: its bytes copied eight at a time until its closing quote; a
  /// comma (the field is quoted) or an escape (it is decoded) starts the field again the slow way.
  @inline(__always)
  private static func writeStringField(_ parser: inout JSONParser, into output: JSONTextBuffer)
    throws(JSONParseError)
  {
    let bytes = parser.bytes
    let end = bytes.count
    let mark = output.count
    var out = mark
    var room = output.capacity
    var base = output.base
    var index = parser.offset + 1
    while true {
      Self.reserve(8, at: out, in: output, room: &room, base: &base)
      if index + 8 <= end {
        let step = CSVField.copyWord(bytes, &index, to: base, &out) {
          ByteWord.equal(UInt8(ascii: "\""), in: $0) | ByteWord.equal(UInt8(ascii: "\\"), in: $0)
            | ByteWord.equal(UInt8(ascii: ","), in: $0)
        }
        if step { continue }
      } else if index < end {
        let byte = bytes[index]
        if byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\") && byte != UInt8(ascii: ",") {
          base[out] = byte
          index += 1
          out += 1
          continue
        }
      } else {
        break  // cut off: the slow way says where
      }
      if bytes[index] == UInt8(ascii: "\"") {
        parser.offset = index + 1
        output.count = out
        if out == mark { CSVField.writeEmpty(into: output) }
        return
      }
      break
    }
    // The slow way: the text up to the closing quote, or decoded from the first escape.
    output.count = mark
    let offset = parser.offset
    index = offset + 1
    while index < end && bytes[index] != UInt8(ascii: "\"") && bytes[index] != UInt8(ascii: "\\")
      && bytes[index] >= 0x20
    {
      index += 1
    }
    if index < end && bytes[index] == UInt8(ascii: "\"") {
      CSVField.write(
        UnsafeBufferPointer(rebasing: bytes[offset + 1..<index]), emptyQuoted: true, into: output)
      parser.offset = index + 1
    } else if index < end && bytes[index] == UInt8(ascii: "\\") {
      _ = try parser.decodeEscapes(quote: offset, escape: index)
      parser.scratch.withUnsafeBufferPointer {
        CSVField.write($0, emptyQuoted: true, into: output)
      }
    } else {
      _ = try parser.readString(reusing: nil)  // cut off, or a control character: throws where
    }
  }

  /// Makes room in `output` for `needed` bytes at `out` (what is written counted to there), and
  /// sets `room` and `base` to its capacity and start again.
  @inline(__always)
  private static func reserve(
    _ needed: Int, at out: Int, in output: JSONTextBuffer, room: inout Int,
    base: inout UnsafeMutablePointer<UInt8>
  ) {
    guard out + needed > room else { return }
    output.count = out
    output.grow(toHold: out + needed)
    room = output.capacity
    base = output.base
  }

  /// A nested value at `parser`'s offset (`{` or `[`): its compact text, quoted when it holds a
  /// comma or a quote (doubled), written as it is read; whitespace between its tokens is left
  /// out.
  @inline(__always)
  private static func writeNestedField(
    _ parser: inout JSONParser, into output: JSONTextBuffer, nested: JSONTextBuffer
  ) throws(JSONParseError) {
    let bytes = parser.bytes
    let end = bytes.count
    let start = parser.offset
    let mark = output.count
    // The opening quote's place, taken back when none is needed.
    var out = mark + 1
    var room = output.capacity
    var base = output.base
    var index = start
    var open = 0
    var quoted = false
    // Deeper than this, the writer's own walk decides (it refuses past maximumDepth).
    let deepest = JSONParser.maximumDepth - parser.baseDepth - 2
    scan: while true {
      // Room for the most one step writes: a word stored, or a doubled quote.
      Self.reserve(16, at: out, in: output, room: &room, base: &base)
      guard index < end else { break scan }
      let byte = bytes[index]
      switch byte {
      case UInt8(ascii: "\""):
        quoted = true
        base[out] = byte
        base[out + 1] = byte
        out += 2
        index += 1
        // The string's bytes, eight at a time to its closing quote.
        while true {
          Self.reserve(16, at: out, in: output, room: &room, base: &base)
          if index + 8 <= end,
            CSVField.copyWord(
              bytes, &index, to: base, &out,
              {
                ByteWord.equal(UInt8(ascii: "\""), in: $0)
                  | ByteWord.equal(UInt8(ascii: "\\"), in: $0) | ByteWord.equal(0xC2, in: $0)
              })
          {
            continue
          }
          guard index < end else { break scan }
          let inner = bytes[index]
          if inner == UInt8(ascii: "\"") {
            base[out] = inner
            base[out + 1] = inner
            out += 2
            index += 1
            break
          }
          // An escape, or a C1 control: the writer writes the string its own way.
          if inner == UInt8(ascii: "\\") { break scan }
          if inner == 0xC2 && index + 1 < end && (0x80...0x9F).contains(bytes[index + 1]) {
            break scan
          }
          base[out] = inner
          out += 1
          index += 1
        }
      case UInt8(ascii: "{"), UInt8(ascii: "["):
        guard open < deepest else { break scan }
        open += 1
        base[out] = byte
        out += 1
        index += 1
      case UInt8(ascii: "}"), UInt8(ascii: "]"):
        open -= 1
        base[out] = byte
        out += 1
        index += 1
        if open == 0 {
          if quoted {
            base[mark] = UInt8(ascii: "\"")
            base[out] = UInt8(ascii: "\"")
            out += 1
          } else {
            // No comma and no string: the text as it is, moved back over the quote's place.
            for place in mark..<out - 1 { base[place] = base[place + 1] }
            out -= 1
          }
          output.count = out
          parser.offset = index
          return
        }
      case UInt8(ascii: ","):
        quoted = true
        base[out] = byte
        out += 1
        index += 1
      case 0x20, 0x0A, 0x0D, 0x09:
        index += 1
      default:
        // `:`, or a byte of a number or a literal.
        base[out] = byte
        out += 1
        index += 1
      }
    }
    // The writer's own walk, from the value's start: it writes what it would, or throws where
    // it stops.
    output.count = mark
    parser.offset = start
    nested.count = 0
    try JSONRowWriter.copyValue(&parser, into: nested, indent: nil, depth: 0, around: 1)
    CSVField.write(nested.written, emptyQuoted: false, into: output)
  }
}
