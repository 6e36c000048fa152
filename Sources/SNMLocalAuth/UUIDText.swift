import SNMWire

/// A UUID as Auth's routes read one from text.
///
/// ```swift
/// UUIDText.canonical("0C8E5F7A-6B9D-4F1E-9A3B-2D4C6E8F0A1B")   // "0c8e5f7a-6b9d-4f1e-9a3b-2d4c6e8f0a1b"
/// UUIDText.canonical("0c8e5f7a6b9d4f1e9a3b2d4c6e8f0a1b")       // nil: not the 36-character form
/// ```
enum UUIDText {
  /// `text` lowercased when it is a UUID in its 36-character form (8-4-4-4-12 hex digits of
  /// either case); nil otherwise.
  static func canonical(_ text: String) -> String? {
    let bytes = Array(text.utf8)
    guard bytes.count == 36 else { return nil }
    for (offset, byte) in bytes.enumerated() {
      let isDash = byte == UInt8(ascii: "-")
      guard [8, 13, 18, 23].contains(offset) ? isDash : HexDigit.value(byte) != nil else {
        return nil
      }
    }
    return text.lowercased()
  }
}
