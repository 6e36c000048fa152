/// Why a JSON text could not be parsed, and at which byte.
///
/// ```swift
/// do { _ = try JSONValue(parsing: "{\"a\" 1}") }
/// catch { print(error) }   // invalid JSON at byte 5: expected ':' after an object key, found '1'
/// ```
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What went wrong.
  public enum Reason: Sendable, Equatable {
    /// Something else was expected here; `found` describes what was there (`'x'`, `end of input`).
    case expected(String, found: String)
    /// A backslash escape other than `\" \\ \/ \b \f \n \r \t \uXXXX`.
    case invalidEscape(String)
    /// A `\u` escape that is not four hex digits, or a surrogate without its pair.
    case invalidUnicodeEscape(String)
    /// A raw control character (below U+0020) inside a string.
    case controlCharacterInString(UInt8)
    /// Bytes that are not UTF-8 inside a string.
    case invalidUTF8
    /// A number that breaks the JSON grammar (`01`, `1.`, `-`, `1e`).
    case invalidNumber
    /// Arrays and objects nested deeper than the limit.
    case tooDeep(limit: Int)
    /// More values (scalars, arrays and objects) than the parse was allowed.
    case tooManyValues(limit: Int)
  }

  /// Byte offset (0-based) into the UTF-8 input where the problem is.
  public let offset: Int
  /// What went wrong.
  public let reason: Reason

  /// `invalid JSON at byte N: <reason>`.
  public var description: String {
    "invalid JSON at byte \(offset): \(reasonText)"
  }

  /// The reason alone, lowercase, no period.
  public var reasonText: String {
    switch reason {
    case .expected(let expected, let found): "expected \(expected), found \(found)"
    case .invalidEscape(let escape): "invalid escape '\(escape)' in string"
    case .invalidUnicodeEscape(let detail): "invalid unicode escape: \(detail)"
    case .controlCharacterInString(let byte):
      "control character U+\(hex4(UInt16(byte))) in string must be escaped"
    case .invalidUTF8: "string is not valid UTF-8"
    case .invalidNumber: "invalid number"
    case .tooDeep(let limit): "arrays and objects nested deeper than \(limit) levels"
    case .tooManyValues(let limit): "more than \(limit) values"
    }
  }

  /// How messages name the byte at a position: `'x'`, `byte 0xff`, `end of input`.
  static func describe(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> String {
    guard offset < bytes.count else { return "end of input" }
    let byte = bytes[offset]
    if byte >= 0x21 && byte < 0x7f { return "'\(Character(Unicode.Scalar(byte)))'" }
    switch byte {
    case 0x20: return "a space"
    case 0x0a: return "a newline"
    case 0x09: return "a tab"
    default:
      let length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1
      if byte >= 0x80, offset + length <= bytes.count,
        let text = String(
          validating: UnsafeBufferPointer(rebasing: bytes[offset..<offset + length]), as: UTF8.self)
      {
        return named(text, bytes[offset..<offset + length])
      }
      return "byte 0x\(String(byte, radix: 16, uppercase: false))"
    }
  }

  /// A character beyond ASCII as a message names it: quoted if it shows, else by its code point
  /// and bytes, so that what a server sent can neither hide in nor reorder the message.
  static func named(_ text: String, _ bytes: some Sequence<UInt8>) -> String {
    guard let scalar = text.unicodeScalars.first else { return "''" }
    let hex = bytes.map { String($0, radix: 16, uppercase: true) }.joined(separator: " ")
    if scalar == "\u{FEFF}" { return "a byte-order mark (\(hex))" }
    switch scalar.properties.generalCategory {
    case .control, .format, .spaceSeparator, .lineSeparator, .paragraphSeparator,
      .nonspacingMark, .enclosingMark, .privateUse, .unassigned, .surrogate:
      let digits = String(scalar.value, radix: 16, uppercase: true)
      let padded = String(repeating: "0", count: max(0, 4 - digits.count)) + digits
      return "U+\(padded) (\(hex)), an invisible character"
    default: return "'\(text)'"
    }
  }
}

/// Four uppercase hex digits.
func hex4(_ value: UInt16) -> String {
  let digits = String(value, radix: 16, uppercase: true)
  return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
}
