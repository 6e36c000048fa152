import SNMNetwork

/// The `json` and `ndjson` formats: the response as the server sent it, keys in order.
///
/// `json` prints the whole body indented; `ndjson` prints each element of an array (or the single
/// value) compactly on a line of its own, ready for `jq -c` or a log.
struct JSONRenderer {
  /// Whether to write one compact value per line.
  let lines: Bool

  /// Writes `value`; returns false when the task was cancelled half-way.
  @discardableResult
  func render(_ value: JSONValue, to writer: OutputWriter) -> Bool {
    var out = RenderBuffer(writer: writer)
    defer { out.finish() }
    guard lines else {
      guard case .array(let elements) = value, !elements.isEmpty else {
        out.append(value.prettyPrinted())
        out.newline()
        return true
      }
      // An array a row at a time, so 100,000 rows never become one string (twice the body).
      out.append(UInt8(ascii: "["))
      for (index, element) in elements.enumerated() {
        if index & 1023 == 1023 && Task.isCancelled { return false }
        if index > 0 { out.append(UInt8(ascii: ",")) }
        out.append(0x0A)
        out.spaces(2)
        out.append(bytes: element.prettyPrintedBytes(depth: 1))
        out.flushIfFull()
      }
      out.append("\n]")
      out.newline()
      return true
    }
    let elements = value.arrayValue ?? [value]
    for (index, element) in elements.enumerated() {
      if index & 1023 == 1023 && Task.isCancelled { return false }
      out.append(element.serialized())
      out.newline()
    }
    return true
  }
}
