extension HTTPHeaders.Field {
  /// The field of one head line without its line end (`Name: value`): the name is what comes
  /// before the first colon, the value loses the spaces and tabs around it. Nil without a colon.
  ///
  /// ```swift
  /// HTTPHeaders.Field(headerLine: Array("Content-Type:\tapplication/json ".utf8)[...])
  /// // Content-Type: application/json
  /// ```
  /// What the client's transports and the decoder read fields with: the decoder checks the line
  /// first (a token name, no folding, no control characters), curl's head lines come checked.
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
