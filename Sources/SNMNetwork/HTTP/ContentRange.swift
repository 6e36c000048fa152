/// A `Content-Range` of rows as PostgREST sends it (RFC 9110, section 14.4): `0-24/3573` for a
/// page of a counted total, `0-24/*` when it did not count, `*/0` or `*/*` for an empty page (and
/// for a HEAD or a write without rows, `*/42` the rows it counted). The one reader of the field:
/// anything else (a sign, a non-digit, a number past Int64, a start after the end) is nil.
///
/// ```swift
/// ContentRange("0-24/3573")?.total   // 3573
/// ContentRange("0-24/*")?.total      // nil: not counted
/// ContentRange("*/-5")               // nil: not a range of rows
/// ```
///
/// A range end past the total is kept: PostgREST's `count=planned` (and `estimated`) totals come
/// from the planner and may be fewer than the rows it sent.
public struct ContentRange: Sendable, Hashable {
  /// The first and last row of the page (from 0); nil for `*`, an empty page.
  public let first: Int?
  public let last: Int?
  /// The rows counted; nil for `*`, not counted.
  public let total: Int?

  public init?(_ text: some StringProtocol) {
    let bytes = Array(text.utf8)
    guard let slash = bytes.firstIndex(of: UInt8(ascii: "/")) else { return nil }
    let span = bytes[..<slash]
    let after = bytes[(slash + 1)...]
    if after.elementsEqual("*".utf8) {
      total = nil
    } else {
      guard let counted = Self.number(after) else { return nil }
      total = counted
    }
    if span.elementsEqual("*".utf8) {
      (first, last) = (nil, nil)
      return
    }
    guard let dash = span.firstIndex(of: UInt8(ascii: "-")),
      let lower = Self.number(span[..<dash]), let upper = Self.number(span[(dash + 1)...]),
      lower <= upper
    else { return nil }
    (first, last) = (lower, upper)
  }

  /// The rows the page holds: its length, or for `*/n` (a HEAD, a write without rows) the total.
  public var rows: Int? {
    guard let first, let last else { return total }
    return last - first + 1
  }

  /// A run of ASCII digits as a number; nil when empty, anything else, or past `Int.max`.
  static func number(_ digits: ArraySlice<UInt8>) -> Int? {
    guard !digits.isEmpty else { return nil }
    var value = 0
    for byte in digits {
      guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
      let (times, over) = value.multipliedReportingOverflow(by: 10)
      let (sum, past) = times.addingReportingOverflow(Int(byte - UInt8(ascii: "0")))
      guard !over, !past else { return nil }
      value = sum
    }
    return value
  }
}
