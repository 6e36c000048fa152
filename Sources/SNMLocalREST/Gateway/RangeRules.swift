/// PostgREST's range rules (RangeQuery.hs): the `Range` header (GET only), intersected with
/// `limit`/`offset` and capped by db-max-rows; then `Content-Range` and the 200/206/416 status.
enum RangeRules {
  /// The range of the top level, or nil for all rows.
  ///
  /// `header` is the `Range` value (`0-19`, `10-`; GET only, the caller decides); anything not
  /// matching `^[0-9]+-[0-9]*$` is ignored, as PostgREST does. The header and `limit`/`offset`
  /// intersect (`offset=-4` is a no-op, as `readMaybe` lets it through); `limit=0` bypasses the
  /// rest. An empty intersection is 416 PGRST103: "lower boundary" when the header itself is
  /// inverted, else "Limit should be greater than or equal to zero" (ApiRequest.getRanges).
  static func effective(
    header: String?, query: QueryParameters.Range?, maxRows: Int?
  ) throws(RESTError) -> QueryParameters.Range? {
    if query?.limit == 0 { return QueryParameters.Range(offset: 0, limit: 0) }
    let headerBounds = header.flatMap(parseHeader)
    var bounds: (lower: Int, upper: Int?)? = headerBounds
    if let query {
      let upper = query.limit.map { query.offset + $0 - 1 }
      let current = bounds ?? (0, nil)
      let upperBound: Int?
      switch (current.upper, upper) {
      case (let a?, let b?): upperBound = min(a, b)
      case (let a?, nil): upperBound = a
      case (nil, let b?): upperBound = b
      case (nil, nil): upperBound = nil
      }
      bounds = (max(current.lower, query.offset, 0), upperBound)
    }
    if let bounds, let upper = bounds.upper, upper < bounds.lower {
      let headerInverted = headerBounds.map { ($0.upper ?? $0.lower) < $0.lower } ?? false
      throw RESTError.invalidRange(
        headerInverted
          ? "The lower boundary must be lower than or equal to the upper boundary in the Range header."
          : "Limit should be greater than or equal to zero.")
    }
    if let maxRows {
      let lower = bounds?.lower ?? 0
      let cap = lower + maxRows - 1
      bounds = (lower, min(bounds?.upper ?? cap, cap))
    }
    guard let bounds else { return nil }
    return QueryParameters.Range(
      offset: bounds.lower, limit: bounds.upper.map { max(0, $0 - bounds.lower + 1) })
  }

  /// The bounds of a `Range` value, inverted ones included; nil when it does not match.
  private static func parseHeader(_ header: String) -> (lower: Int, upper: Int?)? {
    let text = header.trimmingCharacters(in: " \t")
    let parts = text.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
    guard parts.count == 2, !parts[0].isEmpty, parts[0].allSatisfy(\.isASCIIDigit),
      parts[1].allSatisfy(\.isASCIIDigit), let lower = Int(parts[0]),
      lower <= QueryParameters.largestRow
    else { return nil }
    if parts[1].isEmpty { return (lower, nil) }
    guard let upper = Int(parts[1]), upper <= QueryParameters.largestRow else { return nil }
    return (lower, upper)
  }

  /// `Content-Range: first-last/total`: `*` for an empty page, `*` for an unknown total.
  static func contentRange(offset: Int, pageTotal: Int, total: Int?) -> String {
    let upper = offset + pageTotal - 1
    // Written into memory on the stack: three numbers of 20 bytes at most, and three more.
    return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 64) { buffer in
      var count = 0
      func put(_ byte: UInt8) {
        buffer[count] = byte
        count += 1
      }
      func putDecimal(_ number: Int) {
        guard number >= 0 else {
          for byte in String(number).utf8 { put(byte) }
          return
        }
        var rest = number
        var digits = 1
        while rest >= 10 {
          rest /= 10
          digits += 1
        }
        rest = number
        for place in stride(from: count + digits - 1, through: count, by: -1) {
          buffer[place] = UInt8(ascii: "0") + UInt8(rest % 10)
          rest /= 10
        }
        count += digits
      }
      if total != 0 && offset <= upper {
        putDecimal(offset)
        put(UInt8(ascii: "-"))
        putDecimal(upper)
      } else {
        put(UInt8(ascii: "*"))
      }
      put(UInt8(ascii: "/"))
      if let total { putDecimal(total) } else { put(UInt8(ascii: "*")) }
      return String(decoding: UnsafeBufferPointer(rebasing: buffer[..<count]), as: UTF8.self)
    }
  }

  /// 200, or 206 when the page is smaller than the known total; 416 PGRST103 when the offset
  /// lies past the total.
  static func status(offset: Int, pageTotal: Int, total: Int?) throws(RESTError) -> Int {
    guard let total else { return 200 }
    if offset > total { throw RESTError.rangeOutOfBounds(offset: offset, total: total) }
    return pageTotal < total ? 206 : 200
  }
}

extension Character {
  var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
