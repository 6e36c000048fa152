/// How deeply arrays and objects nest in a value, walked without recursion (a value parsed from
/// a hostile body can be thousands of levels deep).
extension JSONValue {
  /// Whether arrays and objects nest more than `limit` levels deep (a scalar is 0 levels, `[]`
  /// and `{}` are 1).
  ///
  /// ```swift
  /// try JSONValue(parsing: "[[1]]").nests(deeperThan: 1)   // true
  /// ```
  public func nests(deeperThan limit: Int) -> Bool {
    var pending: [(JSONValue, Int)] = [(self, 1)]
    while let (item, depth) = pending.popLast() {
      let children: [JSONValue]
      switch item {
      case .array(let items): children = items
      case .object(let members): children = members.values
      default: continue
      }
      if depth > limit { return true }
      pending += children.map { ($0, depth + 1) }
    }
    return false
  }
}
