/// One loop for the text escapers of the formats snm writes (YAML scalars in TAP, XML in JUnit,
/// history lines, Swift literals, snm's own strings): each says which characters it replaces and
/// how it writes the control characters it does not name; the rest is copied.
///
/// ```swift
/// let yaml = ScalarEscaping(["\"": "\\\"", "\\": "\\\\", "\n": "\\n"]) { value in
///   value < 0x20 || value == 0x7F ? "\\x" + ScalarEscaping.hex(value, digits: 2) : nil
/// }
/// yaml.escape("a\"b")   // a\"b
/// ```
public struct ScalarEscaping: Sendable {
  /// What a character becomes, for the characters the format names.
  public let replacements: [Unicode.Scalar: String]
  /// What any other character becomes (nil: itself), given its code point.
  public let other: @Sendable (UInt32) -> String?

  public init(
    _ replacements: [Unicode.Scalar: String],
    other: @escaping @Sendable (UInt32) -> String? = { _ in nil }
  ) {
    self.replacements = replacements
    self.other = other
  }

  /// `text` with each character replaced as the format says.
  public func escape(_ text: String) -> String {
    var escaped = ""
    escaped.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
      if let replacement = replacements[scalar] ?? other(scalar.value) {
        escaped += replacement
      } else {
        escaped.unicodeScalars.append(scalar)
      }
    }
    return escaped
  }

  /// `value` in lowercase hexadecimal, padded with zeros to `digits` (none: as it is).
  public static func hex(_ value: UInt32, digits: Int = 0) -> String {
    let hex = String(value, radix: 16)
    return String(repeating: "0", count: max(0, digits - hex.count)) + hex
  }
}
