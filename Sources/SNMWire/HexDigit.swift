/// One hexadecimal digit's value, for `%XX` escapes, `\uXXXX` escapes and chunk sizes.
///
/// ```swift
/// HexDigit.value(UInt8(ascii: "f"))   // 15
/// HexDigit.value(UInt8(ascii: "+"))   // nil: a sign is not a digit
/// ```
package enum HexDigit {
  /// The value of `byte` as a hex digit (either case), or nil.
  @inline(__always)
  package static func value(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
  }
}
