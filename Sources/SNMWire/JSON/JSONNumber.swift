/// A JSON number kept as its exact text, so `90210`, `37.5` and `12345678901234567890` round-trip.
///
/// ```swift
/// let zip = JSONNumber(90210)          // text "90210"
/// let big = JSONNumber("12345678901234567890")   // valid JSON number text, or nil
/// big?.intValue                        // nil: does not fit an Int
/// big?.doubleValue                     // 1.2345678901234567e19
/// ```
public struct JSONNumber: Sendable, Hashable {
  /// The number exactly as written in the JSON text (or as Swift printed it).
  public let text: String

  /// Wraps text already known to be a valid JSON number (the parser's path).
  init(validatedText text: String) {
    self.text = text
  }

  /// Wraps `text` when it is a JSON number (`-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`), else nil.
  public init?(_ text: String) {
    var copy = text
    let valid = copy.withUTF8 { !$0.isEmpty && JSONNumber.scan($0, from: 0) == $0.count }
    guard valid else { return nil }
    self.text = text
  }

  /// The integer's decimal text.
  public init(_ value: Int) {
    self.text = String(value)
  }

  /// The double's shortest round-tripping text (`37.5`, `127.0`, `1e-05`), or nil for NaN and infinities.
  public init?(_ value: Double) {
    guard value.isFinite else { return nil }
    self.text = value.description
  }

  /// The value as an `Int` when the text is an integer that fits, else nil (`3.0` is not an `Int`).
  public var intValue: Int? { Int(text) }

  /// The value as the nearest `Double` (which may round, e.g. for 20-digit integers).
  public var doubleValue: Double? { Double(text) }

  /// `true` when the text has no fraction and no exponent.
  public var isInteger: Bool {
    !text.utf8.contains {
      $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E")
    }
  }

  /// Scans a JSON number starting at `start`; returns the offset just past it, or nil when the bytes
  /// there do not form one.
  @inline(__always)
  static func scan(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
    var i = start
    let n = bytes.count
    func isDigit(_ at: Int) -> Bool { at < n && bytes[at] &- 0x30 < 10 }
    if i < n && bytes[i] == UInt8(ascii: "-") { i += 1 }
    guard isDigit(i) else { return nil }
    if bytes[i] == UInt8(ascii: "0") {
      i += 1
    } else {
      i = JSONByteScan.digitsEnd(bytes, from: i + 1)
    }
    if i < n && bytes[i] == UInt8(ascii: ".") {
      i += 1
      guard isDigit(i) else { return nil }
      i = JSONByteScan.digitsEnd(bytes, from: i + 1)
    }
    if i < n && (bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E")) {
      i += 1
      if i < n && (bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-")) { i += 1 }
      guard isDigit(i) else { return nil }
      i = JSONByteScan.digitsEnd(bytes, from: i + 1)
    }
    return i
  }
}

extension JSONNumber: ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral {
  public init(integerLiteral value: Int) { self.init(value) }

  /// A float literal; literals are always finite.
  public init(floatLiteral value: Double) { self.text = value.description }
}

extension JSONNumber: CustomStringConvertible {
  public var description: String { text }
}
