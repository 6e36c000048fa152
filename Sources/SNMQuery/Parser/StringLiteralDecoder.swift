/// Decoding a quoted token that holds escapes or `${...}` parts: JSON escapes in double quotes,
/// `''` in single quotes, `${name}` variables and `${uuid}`-style generators (AST/Generator.swift).
/// ``Parser/decodeString(_:interpolateBare:interpolate:)`` hands it the strings that need more than
/// their text.
enum StringLiteralDecoder {
  /// The literal `token` spells (its escapes and `${...}` parts decoded); `$name.field` parts too
  /// when `interpolateBare`, as in `echo`.
  static func decode(_ parser: Parser, _ token: Token, interpolateBare: Bool, interpolate: Bool)
    throws(ParseFailure)
    -> StringLiteral
  {
    let bytes = parser.source.bytes
    let start = token.start + 1
    let end = max(start, token.end - 1)
    let hasDollar = interpolate && token.flags.contains(.hasDollar)
    let double = token.kind == .doubleQuoted
    var parts: [StringPart] = []
    var buffer: [UInt8] = []
    var cursor = start
    func flush() {
      if !buffer.isEmpty {
        parts.append(.text(String(decoding: buffer, as: UTF8.self)))
        buffer.removeAll(keepingCapacity: true)
      }
    }
    while cursor < end {
      let byte = bytes[cursor]
      if double && byte == UInt8(ascii: "\\") {
        cursor = try decodeEscape(parser, at: cursor, end: end, into: &buffer)
      } else if !double && byte == UInt8(ascii: "'") {
        buffer.append(byte)
        cursor += 2
      } else if hasDollar && byte == UInt8(ascii: "$") {
        if cursor + 1 < end && bytes[cursor + 1] == UInt8(ascii: "{") {
          if let (generator, close) = try Self.generator(parser, at: cursor, end: end) {
            flush()
            parts.append(.generator(generator))
            cursor = close + 1
            continue
          }
          let pathEnd = Lexer.variablePathEnd(in: bytes, from: cursor + 2)
          guard pathEnd > cursor + 2, pathEnd < end, bytes[pathEnd] == UInt8(ascii: "}") else {
            throw parser.failure(
              .invalidVariable, at: SourceRange(start: cursor, end: cursor + 2),
              help:
                "write ${name} or ${name.field}; to keep a literal '${', write '\\${' in double quotes"
            )
          }
          flush()
          let range = SourceRange(start: cursor, end: pathEnd + 1)
          parts.append(
            .variable(
              ValueParser.parseVariablePath(bytes, start: cursor + 2, end: pathEnd, range: range)))
          cursor = pathEnd + 1
        } else if interpolateBare,
          case let pathEnd = Lexer.variablePathEnd(in: bytes, from: cursor + 1),
          pathEnd > cursor + 1, pathEnd <= end
        {
          flush()
          let range = SourceRange(start: cursor, end: pathEnd)
          parts.append(
            .variable(
              ValueParser.parseVariablePath(bytes, start: cursor + 1, end: pathEnd, range: range)))
          cursor = pathEnd
        } else {
          buffer.append(byte)
          cursor += 1
        }
      } else {
        buffer.append(byte)
        cursor += 1
      }
    }
    flush()
    return StringLiteral(parts: parts)
  }

  /// One JSON escape at `cursor` (a backslash); returns the offset after it.
  static func decodeEscape(_ parser: Parser, at cursor: Int, end: Int, into buffer: inout [UInt8])
    throws(ParseFailure)
    -> Int
  {
    let bytes = parser.source.bytes
    guard cursor + 1 < end else {
      throw parser.failure(
        .invalidEscape("\\"), at: SourceRange(start: cursor, end: cursor + 1),
        help: "write \\\\ for a backslash")
    }
    let next = bytes[cursor + 1]
    switch next {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "$"):
      buffer.append(next)
    case UInt8(ascii: "b"): buffer.append(0x08)
    case UInt8(ascii: "f"): buffer.append(0x0C)
    case UInt8(ascii: "n"): buffer.append(0x0A)
    case UInt8(ascii: "r"): buffer.append(0x0D)
    case UInt8(ascii: "t"): buffer.append(0x09)
    case UInt8(ascii: "u"):
      guard let unit = hexUnit(parser, at: cursor + 2, end: end) else {
        throw badEscape(parser, at: cursor, length: 2)
      }
      var scalarValue = unit
      var length = 6
      if (0xD800...0xDBFF).contains(unit) {
        guard cursor + 7 < end, bytes[cursor + 6] == UInt8(ascii: "\\"),
          bytes[cursor + 7] == UInt8(ascii: "u"),
          let low = hexUnit(parser, at: cursor + 8, end: end),
          (0xDC00...0xDFFF).contains(low)
        else { throw badEscape(parser, at: cursor, length: 6) }
        scalarValue = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
        length = 12
      }
      guard let scalar = Unicode.Scalar(scalarValue) else {
        throw badEscape(parser, at: cursor, length: 6)
      }
      buffer.append(contentsOf: Array(String(Character(scalar)).utf8))
      return cursor + length
    default:
      throw badEscape(parser, at: cursor, length: 2)
    }
    return cursor + 2
  }

  static func hexUnit(_ parser: Parser, at offset: Int, end: Int) -> UInt32? {
    guard offset + 4 <= end else { return nil }
    var value: UInt32 = 0
    for position in offset..<(offset + 4) {
      let byte = parser.source.bytes[position]
      guard isHexDigit(byte) else { return nil }
      let digit = isDigit(byte) ? byte - UInt8(ascii: "0") : (byte | 0x20) - UInt8(ascii: "a") + 10
      value = value * 16 + UInt32(digit)
    }
    return value
  }

  static func badEscape(_ parser: Parser, at cursor: Int, length: Int) -> ParseFailure {
    let range = SourceRange(start: cursor, end: min(cursor + length, parser.source.bytes.count))
    return parser.failure(
      .invalidEscape(parser.source.text(of: range)), at: range,
      help: "escapes are \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX; or use single quotes")
  }

  /// The generator written at `cursor` (a `$` followed by `{`) and the offset of its `}`, or nil
  /// when the braces hold something else (a variable). Throws for a generator written wrongly
  /// (`${random}`, `${now + 1 hour}`).
  static func generator(_ parser: Parser, at cursor: Int, end: Int) throws(ParseFailure) -> (
    Generator, Int
  )? {
    let bytes = parser.source.bytes
    var close = cursor + 2
    while close < end && bytes[close] != UInt8(ascii: "}") && bytes[close] != 10 { close += 1 }
    guard close < end, bytes[close] == UInt8(ascii: "}") else { return nil }
    let inner = String(decoding: bytes[(cursor + 2)..<close], as: UTF8.self)
    if let generator = Generator.parse(inner) { return (generator, close) }
    guard Generator.looksLikeOne(inner) else { return nil }
    throw parser.failure(
      .invalidGenerator(inner), at: SourceRange(start: cursor, end: close + 1),
      help: "generators are ${uuid}, ${now}, ${now + 1h} (ms, s, m, h, d), ${random 8}")
  }
}
