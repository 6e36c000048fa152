/// Whether bytes are well-formed UTF-8 (RFC 3629: no overlong forms, no surrogates, nothing past
/// U+10FFFF), checked 32 bytes at a time across ASCII text: what a script file is checked
/// for before it is lexed, without making a String of it (the standard library's check went a
/// byte at a time once the text held one non-ASCII character).
///
/// ```swift
/// UTF8Check.isValid(Array("산책 🐶".utf8))   // true
/// UTF8Check.isValid([0xED, 0xA0, 0x80])     // false: a surrogate
/// ```
enum UTF8Check {
  static func isValid(_ bytes: [UInt8]) -> Bool {
    bytes.withUnsafeBufferPointer { isValid($0) }
  }

  static func isValid(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    let count = bytes.count
    var index = 0
    while index < count {
      // Thirty-two ASCII bytes a step (four loads, one test) while 32 are left, then eight.
      if index &+ 32 <= count
        && (NameWord.load(bytes, at: index) | NameWord.load(bytes, at: index &+ 8)
          | NameWord.load(bytes, at: index &+ 16) | NameWord.load(bytes, at: index &+ 24))
          & NameWord.highs == 0
      {
        index &+= 32
        continue
      }
      if index &+ 8 <= count && NameWord.load(bytes, at: index) & NameWord.highs == 0 {
        index &+= 8
        continue
      }
      let lead = bytes[index]
      if lead < 0x80 {
        index &+= 1
        continue
      }
      // The bytes after the lead that must be continuation bytes, and the range the first of
      // them may take (narrower after E0, ED, F0 and F4).
      var length = 0
      var low: UInt8 = 0x80
      var high: UInt8 = 0xBF
      switch lead {
      case 0xC2...0xDF: length = 1
      case 0xE0: (length, low) = (2, 0xA0)
      case 0xE1...0xEC, 0xEE...0xEF: length = 2
      case 0xED: (length, high) = (2, 0x9F)
      case 0xF0: (length, low) = (3, 0x90)
      case 0xF1...0xF3: length = 3
      case 0xF4: (length, high) = (3, 0x8F)
      default: return false
      }
      guard index &+ length < count else { return false }
      let second = bytes[index &+ 1]
      guard second >= low && second <= high else { return false }
      var offset = 2
      while offset <= length {
        guard bytes[index &+ offset] & 0xC0 == 0x80 else { return false }
        offset &+= 1
      }
      index &+= length &+ 1
    }
    return true
  }
}
