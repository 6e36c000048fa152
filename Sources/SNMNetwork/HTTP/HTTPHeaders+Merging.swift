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
    // A few fields (every answer of the local project) are matched by a scan; a hash of every
    // name cost more than the scan.
    var index: [String: Int]? = fields.count > 16 ? [:] : nil
    index?.reserveCapacity(fields.count)
    for field in fields {
      let key = field.name.lowercased()
      let found = index.map { $0[key] } ?? merged.firstIndex { $0.key == key }
      if let at = found {
        merged[at].field.value += ", " + field.value
      } else {
        index?[key] = merged.count
        merged.append((key, field))
      }
    }
    merged.sort { $0.key < $1.key }
    return HTTPHeaders(merged.map(\.field))
  }
}
