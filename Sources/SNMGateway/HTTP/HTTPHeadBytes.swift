/// Bytes written through a pointer into memory measured beforehand: an answer's head and body
/// are measured first, then written without the capacity and uniqueness checks an `Array`'s
/// `append` makes on every call (most of what writing a head cost).
///
/// ```swift
/// let bytes = [UInt8](unsafeUninitializedCapacity: name.utf8.count + 2) { buffer, written in
///   var head = HTTPHeadBytes(buffer)
///   head.appendSanitized(name)
///   head.append("\r\n")
///   written = head.count
/// }
/// ```
/// Text is written as `HTTPEncoder.appendSanitized` writes it: each CR, LF or CRLF one space, so
/// a field can never end the head or add one (the text never grows: its UTF-8 count is room
/// enough). Writing past the room measured stops the process (a measuring bug, never input).
struct HTTPHeadBytes {
  private let base: UnsafeMutablePointer<UInt8>?
  private let capacity: Int
  private(set) var count = 0

  init(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
    base = buffer.baseAddress
    capacity = buffer.count
  }

  /// The most `appendDecimal` or `appendHex` writes for any integer.
  static let numberRoom = 20

  private func target(_ more: Int) -> UnsafeMutablePointer<UInt8> {
    guard let base, count + more <= capacity else {
      preconditionFailure("HTTPHeadBytes: more bytes than measured")
    }
    return base + count
  }

  @inline(__always)
  mutating func append(_ byte: UInt8) {
    target(1).pointee = byte
    count += 1
  }

  mutating func append(_ bytes: UnsafeRawBufferPointer) {
    guard let source = bytes.baseAddress, bytes.count > 0 else { return }
    target(bytes.count).update(from: source.assumingMemoryBound(to: UInt8.self), count: bytes.count)
    count += bytes.count
  }

  mutating func append(_ text: StaticString) {
    append(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
  }

  mutating func append(_ bytes: [UInt8]) {
    bytes.withUnsafeBytes { append($0) }
  }

  /// `text`'s UTF-8 with each CR, LF or CRLF (one character) made one space.
  mutating func appendSanitized(_ text: String) {
    var text = text
    text.withUTF8 { bytes in
      if !Self.hasLineEnd(bytes) {
        append(UnsafeRawBufferPointer(bytes))
        return
      }
      var index = 0
      while index < bytes.count {
        let byte = bytes[index]
        index += 1
        if byte == 0x0D || byte == 0x0A {
          if byte == 0x0D, index < bytes.count, bytes[index] == 0x0A { index += 1 }
          append(UInt8(ascii: " "))
        } else {
          append(byte)
        }
      }
    }
  }

  /// Whether `bytes` hold a CR or an LF: eight bytes tested at a time, the last few one by one
  /// (a head's values are most of its bytes). A byte is CR or LF when the word XORed with that
  /// byte in every place has a zero byte there (`zero`: exact for whether, as `ByteWord`'s
  /// tests, written out here because a static build does not inline those across modules).
  static func hasLineEnd(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    func zero(_ word: UInt64) -> UInt64 { (word &- ones) & ~word & highs }
    let words = UnsafeRawBufferPointer(bytes)
    var index = 0
    while index + 8 <= bytes.count {
      let word = words.loadUnaligned(fromByteOffset: index, as: UInt64.self)
      if zero(word ^ (ones &* 0x0D)) | zero(word ^ (ones &* 0x0A)) != 0 { return true }
      index += 8
    }
    while index < bytes.count {
      if bytes[index] == 0x0D || bytes[index] == 0x0A { return true }
      index += 1
    }
    return false
  }

  /// `value` in decimal, as `String(value)` writes it.
  mutating func appendDecimal(_ value: Int64) {
    guard value >= 0 else {
      for byte in String(value).utf8 { append(byte) }
      return
    }
    var rest = UInt64(value)
    var digits = 1
    var scan = rest
    while scan >= 10 {
      scan /= 10
      digits += 1
    }
    let start = target(digits)
    var at = digits
    repeat {
      at -= 1
      start[at] = UInt8(ascii: "0") + UInt8(rest % 10)
      rest /= 10
    } while rest > 0
    count += digits
  }

  /// `value` (not negative) in lowercase hexadecimal, as `String(value, radix: 16)` writes it.
  mutating func appendHex(_ value: Int) {
    let digits: StaticString = "0123456789abcdef"
    var shift = 60
    while shift > 0 && (value >> shift) & 0xF == 0 { shift -= 4 }
    while shift >= 0 {
      append(digits.utf8Start[(value >> shift) & 0xF])
      shift -= 4
    }
  }
}
