/// Decoding quoted tokens: escapes, and `${name}` parts of strings.
extension Parser {
  /// Whether `text` is not empty and all ASCII letters, digits and the characters of `also`
  /// (a topic's `._-:`, a Storage path's `._/-`).
  static func isASCIIWord(_ text: String, also punctuation: String) -> Bool {
    !text.isEmpty
      && text.utf8.allSatisfy { byte in
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
          UInt8(ascii: "0")...UInt8(ascii: "9"):
          true
        default: punctuation.utf8.contains(byte)
        }
      }
  }

  /// A double-quoted name (JSON escapes) or a single-quoted string used as a name or key.
  func decodeQuotedName(_ token: Token) throws(ParseFailure) -> String {
    let literal = try decodeString(token, interpolateBare: false, interpolate: false)
    return literal.constantText ?? ""
  }

  /// A string literal: `''` in single quotes, JSON escapes in double quotes, and `${name}` parts
  /// (plus bare `$name.field` parts when `interpolateBare`, as in `echo`).
  func decodeString(_ token: Token, interpolateBare: Bool, interpolate: Bool = true)
    throws(ParseFailure)
    -> StringLiteral
  {
    let bytes = source.bytes
    let start = token.start + 1
    let end = max(start, token.end - 1)
    let hasDollar = interpolate && token.flags.contains(.hasDollar)
    if !token.flags.contains(.hasEscapes) && !hasDollar {
      return StringLiteral(texts.text(of: SourceRange(start: start, end: end), in: source))
    }
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
        cursor = try decodeEscape(at: cursor, end: end, into: &buffer)
      } else if !double && byte == UInt8(ascii: "'") {
        buffer.append(byte)
        cursor += 2
      } else if hasDollar && byte == UInt8(ascii: "$") {
        if cursor + 1 < end && bytes[cursor + 1] == UInt8(ascii: "{") {
          if let (generator, close) = try generator(at: cursor, end: end) {
            flush()
            parts.append(.generator(generator))
            cursor = close + 1
            continue
          }
          let pathEnd = Lexer.variablePathEnd(in: bytes, from: cursor + 2)
          guard pathEnd > cursor + 2, pathEnd < end, bytes[pathEnd] == UInt8(ascii: "}") else {
            throw failure(
              .invalidVariable, at: SourceRange(start: cursor, end: cursor + 2),
              help:
                "write ${name} or ${name.field}; to keep a literal '${', write '\\${' in double quotes"
            )
          }
          flush()
          let range = SourceRange(start: cursor, end: pathEnd + 1)
          parts.append(
            .variable(
              Parser.parseVariablePath(bytes, start: cursor + 2, end: pathEnd, range: range)))
          cursor = pathEnd + 1
        } else if interpolateBare,
          case let pathEnd = Lexer.variablePathEnd(in: bytes, from: cursor + 1),
          pathEnd > cursor + 1, pathEnd <= end
        {
          flush()
          let range = SourceRange(start: cursor, end: pathEnd)
          parts.append(
            .variable(
              Parser.parseVariablePath(bytes, start: cursor + 1, end: pathEnd, range: range)))
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
  func decodeEscape(at cursor: Int, end: Int, into buffer: inout [UInt8]) throws(ParseFailure)
    -> Int
  {
    let bytes = source.bytes
    guard cursor + 1 < end else {
      throw failure(
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
      guard let unit = hexUnit(at: cursor + 2, end: end) else {
        throw badEscape(at: cursor, length: 2)
      }
      var scalarValue = unit
      var length = 6
      if (0xD800...0xDBFF).contains(unit) {
        guard cursor + 7 < end, bytes[cursor + 6] == UInt8(ascii: "\\"),
          bytes[cursor + 7] == UInt8(ascii: "u"), let low = hexUnit(at: cursor + 8, end: end),
          (0xDC00...0xDFFF).contains(low)
        else { throw badEscape(at: cursor, length: 6) }
        scalarValue = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
        length = 12
      }
      guard let scalar = Unicode.Scalar(scalarValue) else { throw badEscape(at: cursor, length: 6) }
      buffer.append(contentsOf: Array(String(Character(scalar)).utf8))
      return cursor + length
    default:
      throw badEscape(at: cursor, length: 2)
    }
    return cursor + 2
  }

  func hexUnit(at offset: Int, end: Int) -> UInt32? {
    guard offset + 4 <= end else { return nil }
    var value: UInt32 = 0
    for position in offset..<(offset + 4) {
      let byte = source.bytes[position]
      guard isHexDigit(byte) else { return nil }
      let digit = isDigit(byte) ? byte - UInt8(ascii: "0") : (byte | 0x20) - UInt8(ascii: "a") + 10
      value = value * 16 + UInt32(digit)
    }
    return value
  }

  func badEscape(at cursor: Int, length: Int) -> ParseFailure {
    let range = SourceRange(start: cursor, end: min(cursor + length, source.bytes.count))
    return failure(
      .invalidEscape(source.text(of: range)), at: range,
      help: "escapes are \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX; or use single quotes")
  }
}
