import SNMWire

extension HTTPHeaders {
  /// Fields as every transport returns them: one per name (repeats joined with ", " in the order
  /// received, under the first one's spelling), sorted by lowercased name.
  ///
  /// ```swift
  /// HTTPHeaders.merging([.init(name: "Vary", value: "a"), .init(name: "vary", value: "b")])
  /// // Vary: a, b
  /// ```
  public static func merging(_ fields: [Field]) -> HTTPHeaders {
    // Each name lowercased once, not in every comparison of the sort.
    var merged: [(key: String, field: Field)] = []
    merged.reserveCapacity(fields.count)
    var index: [String: Int] = [:]
    index.reserveCapacity(fields.count)
    for field in fields {
      let key = field.name.lowercased()
      if let at = index[key] {
        merged[at].field.value += ", " + field.value
      } else {
        index[key] = merged.count
        merged.append((key, field))
      }
    }
    return HTTPHeaders(merged.sorted { $0.key < $1.key }.map(\.field))
  }
}
