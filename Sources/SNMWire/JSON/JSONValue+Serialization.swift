extension JSONValue {
  /// The compact form PostgREST bodies use: no spaces, keys in order, `/` and non-ASCII unescaped.
  ///
  /// ```swift
  /// JSONValue(["name": "Kim", "tags": ["a"]]).serialized()   // {"name":"Kim","tags":["a"]}
  /// ```
  public func serialized() -> String {
    String(decoding: serializedBytes(), as: UTF8.self)
  }

  /// The compact form as UTF-8 bytes, ready to send.
  public func serializedBytes() -> [UInt8] {
    var writer = JSONWriter(indent: nil)
    writer.write(self, depth: 0)
    return writer.output
  }

  /// An indented form for people: one member or element per line, `"key": value`.
  ///
  /// ```swift
  /// print(row.prettyPrinted())
  /// // {
  /// //   "name": "Kim"
  /// // }
  /// ```
  public func prettyPrinted(indent: Int = 2) -> String {
    String(decoding: prettyPrintedBytes(indent: indent), as: UTF8.self)
  }

  /// The indented form as UTF-8 bytes, laid out as if nested `depth` levels deep: an array can be
  /// written a row at a time (`[`, then each row at depth 1) without building one huge string.
  public func prettyPrintedBytes(indent: Int = 2, depth: Int = 0) -> [UInt8] {
    var writer = JSONWriter(indent: max(0, indent))
    writer.write(self, depth: max(0, depth))
    return writer.output
  }

  /// `text` as a JSON string (quoted and escaped as `serialized` writes strings), appended to
  /// `bytes`: for an object written member by member without building its `JSONValue`.
  ///
  /// ```swift
  /// var bytes = Array("{".utf8)
  /// JSONValue.appendQuoted("a\"b", to: &bytes)   // {"a\"b"
  /// ```
  public static func appendQuoted(_ text: String, to bytes: inout [UInt8]) {
    var writer = JSONWriter(indent: nil, reserving: 0)
    swap(&writer.output, &bytes)
    writer.writeString(text)
    swap(&writer.output, &bytes)
  }
}

/// Writes JSON into a byte buffer.
struct JSONWriter {
  /// Spaces per level, or nil for the compact form.
  let indent: Int?
  var output: [UInt8] = []

  init(indent: Int?, reserving capacity: Int = 256) {
    self.indent = indent
    output.reserveCapacity(capacity)
  }

  mutating func write(_ value: JSONValue, depth: Int) {
    switch value {
    case .null: append("null")
    case .bool(let flag): append(flag ? "true" : "false")
    case .number(let number): output.append(contentsOf: number.text.utf8)
    case .string(let text): writeString(text)
    case .array(let elements):
      output.append(UInt8(ascii: "["))
      for (index, element) in elements.enumerated() {
        if index > 0 { output.append(UInt8(ascii: ",")) }
        newline(depth + 1)
        write(element, depth: depth + 1)
      }
      if !elements.isEmpty { newline(depth) }
      output.append(UInt8(ascii: "]"))
    case .object(let object):
      output.append(UInt8(ascii: "{"))
      for index in object.indices {
        if index > 0 { output.append(UInt8(ascii: ",")) }
        newline(depth + 1)
        writeString(object.keys[index])
        output.append(UInt8(ascii: ":"))
        if indent != nil { output.append(UInt8(ascii: " ")) }
        write(object.values[index], depth: depth + 1)
      }
      if !object.isEmpty { newline(depth) }
      output.append(UInt8(ascii: "}"))
    }
  }

  mutating func newline(_ depth: Int) {
    guard let indent else { return }
    output.append(0x0a)
    // Copied from a run of spaces: a repeated element was appended a byte at a time (a tenth of
    // `--format json`'s instructions per row).
    var count = indent * depth
    while count > 0 {
      let run = min(count, Self.spaces.utf8CodeUnitCount)
      output.append(contentsOf: UnsafeBufferPointer(start: Self.spaces.utf8Start, count: run))
      count -= run
    }
  }

  private static let spaces: StaticString = "                                "

  private mutating func append(_ text: StaticString) {
    output.append(
      contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
  }

  /// A quoted string: `"` and `\` get a backslash, control characters their short or `\u00XX` form,
  /// C1 controls (U+0080...U+009F, such as U+009B, a terminal's CSI) included, so JSON output
  /// shown at a terminal cannot drive it.
  mutating func writeString(_ text: String) {
    writeString(text, keeping: [])
  }

  /// A quoted string as ``writeString(_:)`` writes it, but with the three bytes of U+FFFD at each
  /// `decoded` offset of `text`'s UTF-8 written as `escape` instead (a lone surrogate's `\uXXXX`,
  /// kept as it came).
  mutating func writeString(
    _ text: String, keeping escapes: [(decoded: Int, escape: UnsafeBufferPointer<UInt8>)]
  ) {
    output.append(UInt8(ascii: "\""))
    var text = text
    text.withUTF8 { whole in
      var start = 0
      for kept in escapes {
        writeEscaped(UnsafeBufferPointer(rebasing: whole[start..<kept.decoded]))
        output.append(contentsOf: kept.escape)
        start = kept.decoded + 3
      }
      writeEscaped(UnsafeBufferPointer(rebasing: whole[start...]))
    }
    output.append(UInt8(ascii: "\""))
  }

  /// `bytes` (UTF-8) escaped as ``writeString(_:)`` escapes a string's text, without the quotes.
  private mutating func writeEscaped(_ bytes: UnsafeBufferPointer<UInt8>) {
    var runStart = 0
    var index = 0
    while index < bytes.count {
      // Plain ASCII is skipped eight bytes at a time (a request's headers: all of them).
      index = JSONByteScan.plainRun(bytes, from: index)
      guard index < bytes.count else { break }
      let byte = bytes[index]
      defer { index += 1 }
      if byte == 0xC2, index + 1 < bytes.count, (0x80...0x9F).contains(bytes[index + 1]) {
        output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
        output.append(contentsOf: "\\u\(hex4(UInt16(bytes[index + 1])).lowercased())".utf8)
        index += 1
        runStart = index + 1
        continue
      }
      guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else {
        continue
      }
      output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
      runStart = index + 1
      output.append(UInt8(ascii: "\\"))
      switch byte {
      case UInt8(ascii: "\""), UInt8(ascii: "\\"): output.append(byte)
      case 0x0a: output.append(UInt8(ascii: "n"))
      case 0x0d: output.append(UInt8(ascii: "r"))
      case 0x09: output.append(UInt8(ascii: "t"))
      case 0x08: output.append(UInt8(ascii: "b"))
      case 0x0c: output.append(UInt8(ascii: "f"))
      default: output.append(contentsOf: "u\(hex4(UInt16(byte)).lowercased())".utf8)
      }
    }
    output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...]))
  }
}
