extension JSONParser {
  /// Writes the value at `offset` exactly as `writer` would write its parsed form (compact or
  /// indented, strings re-escaped, numbers as written), straight from the bytes and without
  /// building it; leaves `offset` just past the value.
  ///
  /// ```swift
  /// var writer = JSONWriter(indent: 2)
  /// try parser.rewriteValue(into: &writer, depth: 1)   // the bytes of value.prettyPrintedBytes(depth: 1)
  /// ```
  ///
  /// Meant for bytes already validated (``JSONValidator``): on others it throws, but not always
  /// the error ``parse()`` would.
  ///
  /// - Throws: ``JSONParseError`` where the bytes stop being JSON.
  /// `around` counts the containers open around the value (beyond ``baseDepth``), so the depth
  /// checked against ``maximumDepth`` is the value's depth in the whole document, as the validator
  /// counts it; `start` is only where the indentation begins.
  mutating func rewriteValue(into writer: inout JSONWriter, depth start: Int, around: Int = 0)
    throws(JSONParseError)
  {
    var open = JSONOpenStack()
    var depth = start
    while true {
      skipWhitespace()
      guard offset < bytes.count else { throw expected("a JSON value") }
      switch bytes[offset] {
      case UInt8(ascii: "{"), UInt8(ascii: "["):
        let isObject = bytes[offset] == UInt8(ascii: "{")
        let closer = isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
        writer.output.append(bytes[offset])
        offset += 1
        skipWhitespace()
        if offset < bytes.count && bytes[offset] == closer {
          offset += 1
          writer.output.append(closer)
        } else {
          guard open.count + baseDepth + around < Self.maximumDepth else {
            throw JSONParseError(offset: offset, reason: .tooDeep(limit: Self.maximumDepth))
          }
          open.append(isObject)
          depth += 1
          writer.newline(depth)
          if isObject { try rewriteKey(into: &writer) }
          continue
        }
      case UInt8(ascii: "\""): try rewriteString(into: &writer)
      case UInt8(ascii: "t"): try rewriteLiteral("true", into: &writer)
      case UInt8(ascii: "f"): try rewriteLiteral("false", into: &writer)
      case UInt8(ascii: "n"): try rewriteLiteral("null", into: &writer)
      default:
        let begin = offset
        guard let end = JSONNumber.scan(bytes, from: begin) else {
          throw JSONParseError(offset: begin, reason: .invalidNumber)
        }
        offset = end
        writer.output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[begin..<end]))
      }
      // A complete value: write the separators and closers that follow it.
      while true {
        guard let isObject = open.last else { return }
        skipWhitespace()
        let byte = offset < bytes.count ? bytes[offset] : 0
        if byte == UInt8(ascii: ",") {
          offset += 1
          writer.output.append(byte)
          writer.newline(depth)
          if isObject {
            skipWhitespace()
            try rewriteKey(into: &writer)
          }
          break
        } else if byte == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
          offset += 1
          open.removeLast()
          depth -= 1
          writer.newline(depth)
          writer.output.append(byte)
        } else {
          throw expected(
            isObject ? "',' or '}' after an object member" : "',' or ']' after an array element")
        }
      }
    }
  }

  /// `"key": ` (the space only when indenting).
  private mutating func rewriteKey(into writer: inout JSONWriter) throws(JSONParseError) {
    guard offset < bytes.count && bytes[offset] == UInt8(ascii: "\"") else {
      throw expected("'\"' to start an object key")
    }
    try rewriteString(into: &writer)
    skipWhitespace()
    guard offset < bytes.count && bytes[offset] == UInt8(ascii: ":") else {
      throw expected("':' after an object key")
    }
    offset += 1
    writer.output.append(UInt8(ascii: ":"))
    if writer.indent != nil { writer.output.append(UInt8(ascii: " ")) }
  }

  /// A string without escapes is copied as it is (valid JSON text holds no quote or control
  /// character there, so the writer would not change it); one with escapes is decoded and
  /// written again, each lone surrogate (``takesLoneSurrogates``) as the escape it came as.
  private mutating func rewriteString(into writer: inout JSONWriter) throws(JSONParseError) {
    if let end = plainStringEnd() {
      writer.output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[offset...end]))
      offset = end + 1
      return
    }
    if !loneSurrogates.isEmpty { loneSurrogates.removeAll(keepingCapacity: true) }
    let text = try readString(reusing: nil)
    guard !loneSurrogates.isEmpty else {
      writer.writeString(text)
      return
    }
    let escapes = loneSurrogates.map {
      (decoded: $0.decoded, escape: UnsafeBufferPointer(rebasing: bytes[$0.escape..<$0.escape + 6]))
    }
    writer.writeString(text, keeping: escapes)
  }

  private mutating func rewriteLiteral(_ word: StaticString, into writer: inout JSONWriter)
    throws(JSONParseError)
  {
    writer.output.append(contentsOf: try consumeWord(word))
  }
}
