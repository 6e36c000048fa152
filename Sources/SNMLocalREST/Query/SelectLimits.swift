/// What one `select=` may ask Postgres to plan: embedded resources in all and how deep they nest.
///
/// Each embed is a LATERAL join Postgres must plan; the planner's memory grows much faster than
/// the number of joins past about 20 (a backend's peak: 42 MiB at 20 sibling embeds, 60 MiB at
/// 24, 92 MiB at 32; 300 took 3.9 GB and 36 s, and kept it after the request), and nested
/// to-many embeds multiply rows. PostgREST itself sets no limit; hosted projects are guarded by
/// their timeouts and compute size.
///
///     try SelectLimits().check(items)   // 400 PGRST100 past 20 embeds or 8 levels
struct SelectLimits: Sendable, Equatable {
  /// Embedded resources in the whole tree (siblings and nested ones).
  var maximumEmbeds = 20
  /// Levels of embeds below the resource itself.
  var maximumDepth = 8

  /// Throws 400 PGRST100 naming the limit when `items` pass it.
  func check(_ items: [SelectItem]) throws(RESTError) {
    let (embeds, depth) = Self.measure(items)
    if depth > maximumDepth {
      throw RESTError.selectTooCostly(
        "the select nests embedded resources \(depth) levels deep; at most \(maximumDepth) "
          + "are allowed")
    }
    if embeds > maximumEmbeds {
      throw RESTError.selectTooCostly(
        "the select embeds \(embeds) resources; at most \(maximumEmbeds) are allowed")
    }
  }

  /// How many embeds `items` hold and how deep the deepest is.
  static func measure(_ items: [SelectItem]) -> (embeds: Int, depth: Int) {
    var embeds = 0
    var depth = 0
    for case .embed(let embed) in items {
      let inner = measure(embed.children)
      embeds += 1 + inner.embeds
      depth = max(depth, 1 + inner.depth)
    }
    return (embeds, depth)
  }
}
