/// PostgREST's range rules (RangeQuery.hs): the `Range` header (GET only), intersected with
/// `limit`/`offset` and capped by db-max-rows; then `Content-Range` and the 200/206/416 status.
enum RangeRules {
  /// The range of the top level, or nil for all rows.
  ///
  /// `header` is the `Range` value (`0-19`, `10-`); anything not matching `^[0-9]+-[0-9]*$` is
  /// ignored, as PostgREST does. Throws 416 PGRST103 when the lower bound exceeds the upper.
  static func effective(
    header: String?, query: QueryParameters.Range?, maxRows: Int?
  ) throws(RESTError) -> QueryParameters.Range? {
    var bounds: (lower: Int, upper: Int?)? = nil
    if let header {
      bounds = try parseHeader(header)
    }
    if let query {
      let upper = query.limit.map { query.offset + $0 - 1 }
      if let current = bounds {
        let lower = max(current.lower, query.offset)
        let upperBound: Int?
        switch (current.upper, upper) {
        case (let a?, let b?): upperBound = min(a, b)
        case (let a?, nil): upperBound = a
        case (nil, let b?): upperBound = b
        case (nil, nil): upperBound = nil
        }
        bounds = (lower, upperBound)
      } else {
        bounds = (query.offset, upper)
      }
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

  private static func parseHeader(_ header: String) throws(RESTError) -> (Int, Int?)? {
    let text = header.trimmingCharacters(in: " \t")
    let parts = text.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
    guard parts.count == 2, !parts[0].isEmpty, parts[0].allSatisfy(\.isASCIIDigit),
      parts[1].allSatisfy(\.isASCIIDigit), let lower = Int(parts[0]),
      lower <= QueryParameters.largestRow
    else { return nil }
    if parts[1].isEmpty { return (lower, nil) }
    guard let upper = Int(parts[1]), upper <= QueryParameters.largestRow else { return nil }
    if lower > upper {
      throw RESTError.invalidRange(
        "The lower boundary must be lower than or equal to the upper boundary in the Range header.")
    }
    return (lower, upper)
  }

  /// `Content-Range: first-last/total`: `*` for an empty page, `*` for an unknown total.
  static func contentRange(offset: Int, pageTotal: Int, total: Int?) -> String {
    let upper = offset + pageTotal - 1
    let rangeText = total != 0 && offset <= upper ? "\(offset)-\(upper)" : "*"
    return rangeText + "/" + (total.map(String.init) ?? "*")
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
