extension HTTPHeaders.Field {
  /// The field of one head line without its line end (`Name: value`): the name is what comes
  /// before the first colon, the value loses the spaces and tabs around it. Nil without a colon.
  ///
  /// ```swift
  /// HTTPHeaders.Field(headerLine: Array("Content-Type:\tapplication/json ".utf8)[...])
  /// // Content-Type: application/json
  /// ```
  /// The cut alone, no check: ``init(checkedHeaderLine:)`` is the decoder's rules and cut (a
  /// token name, no folding, no control characters), which both transports read answers with.
  /// Inlinable, so that another module's call is made for its bytes' type: called as a generic
  /// from SNMNetwork (curl's header callback, every head line of every https:// answer), it took
  /// 12.5k instructions a line, most of it `String(decoding:)` reading a slice byte by byte
  /// through the protocol.
  @inlinable
  public init?<Bytes: Collection<UInt8>>(headerLine line: Bytes) where Bytes.Index == Int {
    guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { return nil }
    var low = colon + 1
    var high = line.endIndex
    while low < high, line[low] == 0x20 || line[low] == 0x09 { low += 1 }
    while high > low, line[high - 1] == 0x20 || line[high - 1] == 0x09 { high -= 1 }
    self.init(
      name: String(decoding: line[line.startIndex..<colon], as: UTF8.self),
      value: String(decoding: line[low..<high], as: UTF8.self))
  }
}

extension HTTPHeaders.Field {
  /// The field of one head line without its line end, judged by ``HTTPDecoder``'s rules (RFC
  /// 9112 §5: a token name right before the colon, no obsolete folding, a value of visible
  /// characters, spaces, tabs and UTF-8), cut as ``init(headerLine:)`` cuts it; the decoder's
  /// error otherwise. The decoder reads every field of a head with it, and the libcurl transport
  /// every head line libcurl hands over (which libcurl does not check so).
  public init(checkedHeaderLine bytes: UnsafeBufferPointer<UInt8>) throws(HTTPParseError) {
    try self.init(checkedLine: bytes, in: .header)
  }

  /// ``init(checkedHeaderLine:)`` for a line of `section`, whose name a refusal says: a chunked
  /// body's trailer lines are field lines too (RFC 9112 §7.1.2), judged as a head's.
  @inline(__always)
  init(checkedLine bytes: UnsafeBufferPointer<UInt8>, in section: HTTPDecoder.FieldSection)
    throws(HTTPParseError)
  {
    // One pass: the name's bytes are checked on the way to the colon (which is no token byte, so
    // the first byte that is not one is either the first colon or makes the name invalid), the
    // value between the spaces and tabs around it (both field-value bytes). The verdicts and
    // the field are `addFieldInParts`'s, the general code it stands in for.
    guard let parts = HTTPDecoder.fieldParts(bytes), parts.colon > 0 else {
      var headers = HTTPHeaders()
      try HTTPDecoder.addFieldInParts(Array(bytes)[...], to: &headers, in: section)
      self = headers.fields[0]
      return
    }
    let value = UnsafeBufferPointer(rebasing: bytes[parts.low..<parts.high])
    guard HTTPDecoder.isFieldValue(value) else {
      throw .bad("invalid character in \(section) field value")
    }
    self.init(
      name: String(decoding: UnsafeBufferPointer(rebasing: bytes[..<parts.colon]), as: UTF8.self),
      value: String(decoding: value, as: UTF8.self))
  }
}
