/// Resolves a request's `select`, filters, `or`/`and` trees, `order` and ranges into a `ReadPlan`
/// tree, finding each embed's relationship in the schema cache (PostgREST's Plan.hs).
///
///     var planner = ReadPlanner(cache: cache)
///     let plan = try planner.plan(query, table: table, source: .relation(table.name))
///
/// Throws PGRST200/201 for embeds, PGRST108 for a filter or order on an embed the select does
/// not name, PGRST118 for a related order on a to-many embed, PGRST123 for aggregates (when the
/// database does not enable them), PGRST127 for aggregates in a to-many spread.
struct ReadPlanner {
  let cache: SchemaCache
  private var aliasCounter = 0

  init(cache: SchemaCache) {
    self.cache = cache
  }

  /// The plan for the resource itself and its embeds, with every query parameter attached.
  ///
  /// Which filters, trees and orders a plan takes.
  enum Scope {
    /// Everything (reads).
    case all
    /// Only the root level's (the WHERE of an UPDATE/DELETE).
    case rootOnly
    /// Only the embeds' (the rows a write returns).
    case embedsOnly
  }

  mutating func plan(
    _ query: QueryParameters, table: TableInfo?, name: String, source: ReadPlan.Source,
    alias: String? = nil, select: [SelectItem]? = nil, scope: Scope = .all
  ) throws(RESTError) -> ReadPlan {
    func inScope(_ path: QueryParameters.EmbedPath) -> Bool {
      switch scope {
      case .all: true
      case .rootOnly: path.isEmpty
      case .embedsOnly: !path.isEmpty
      }
    }
    var root = try level(
      select ?? query.select, table: table, name: name, source: source, alias: alias)
    for (path, filter) in query.filters where inScope(path) {
      try update(&root, path: path[...]) { (node: inout ReadPlan) throws(RESTError) in
        node.conditions.append(try condition(for: filter, in: node))
      }
    }
    for (path, tree) in query.logic where inScope(path) {
      try update(&root, path: path[...]) { (node: inout ReadPlan) throws(RESTError) in
        node.conditions.append(try condition(for: tree, in: node))
      }
    }
    for (path, terms) in query.order where inScope(path) {
      try update(&root, path: path[...]) { (node: inout ReadPlan) throws(RESTError) in
        for term in terms {
          if let relation = term.relation {
            guard let embed = node.embed(relation) else {
              throw RESTError.notEmbedded(relation)
            }
            guard embed.relationship.isToOne else {
              throw RESTError.relatedOrderNotToOne(origin: node.name, target: relation)
            }
          }
        }
        node.order.append(contentsOf: terms)
      }
    }
    for (path, range) in query.ranges where !path.isEmpty && scope != .rootOnly {
      try update(&root, path: path[...]) { (node: inout ReadPlan) throws(RESTError) in
        node.range = range
      }
    }
    return root
  }

  /// A level: its fields and, recursively, its embeds.
  private mutating func level(
    _ items: [SelectItem], table: TableInfo?, name: String, source: ReadPlan.Source,
    alias: String?
  ) throws(RESTError) -> ReadPlan {
    var plan = ReadPlan(source: source, table: table, name: name, alias: alias, fields: [])
    for item in items {
      switch item {
      case .field(let field):
        if field.aggregate != nil && !cache.aggregatesEnabled {
          throw RESTError.aggregatesNotAllowed
        }
        plan.fields.append(field)
      case .embed(let embed):
        guard let table else {
          throw RESTError(
            status: 400, code: "PGRST200",
            message:
              "Could not find a relationship between '\(name)' and '\(embed.name)' in the schema cache"
          )
        }
        let relationship = try cache.relationship(
          from: table.name, to: embed.name, hint: embed.hint)
        let target = try cache.table(relationship.foreignTable)
        aliasCounter += 1
        let childAlias = ReadPlanner.alias(target.name.name, aliasCounter)
        let lateral = ReadPlanner.alias("\(name)_\(embed.key)", aliasCounter)
        var child = try level(
          embed.children, table: target, name: target.name.name,
          source: .relation(target.name), alias: childAlias)
        var spreadAggregates: [String: SpreadAggregate] = [:]
        if embed.isSpread && relationship.isToOne {
          spreadAggregates = child.takeAggregates()
        } else if embed.isSpread && child.isGrouped {
          throw RESTError.notImplemented(
            "Aggregates are not implemented for one-to-many or many-to-many spreads.")
        }
        plan.embeds.append(
          EmbedPlan(
            key: embed.key, name: embed.name, relationship: relationship,
            joinType: embed.joinType, isSpread: embed.isSpread, lateralAlias: lateral,
            plan: child, spreadAggregates: spreadAggregates))
      }
    }
    return plan
  }

  /// `base_n`, kept under Postgres' 63-byte identifier limit so the counter is never cut off.
  static func alias(_ base: String, _ number: Int) -> String {
    var prefix = ""
    for character in base {
      if prefix.utf8.count + character.utf8.count > 40 { break }
      prefix.append(character)
    }
    return "\(prefix)_\(number)"
  }

  /// Applies `change` to the level at `path` (embed keys), or throws PGRST108.
  private func update(
    _ node: inout ReadPlan, path: ArraySlice<String>,
    _ change: (inout ReadPlan) throws(RESTError) -> Void
  ) throws(RESTError) {
    guard let first = path.first else {
      try change(&node)
      return
    }
    guard let index = node.embeds.firstIndex(where: { $0.key == first || $0.name == first })
    else {
      throw RESTError.notEmbedded(first)
    }
    try update(&node.embeds[index].plan, path: path.dropFirst(), change)
  }

  private func condition(for filter: Filter, in node: ReadPlan) throws(RESTError) -> Condition {
    // `rel=is.null` / `rel=not.is.null` on an embed's key (its alias, else the name written),
    // as PostgREST's addNullEmbedFilters; any other filter is on a column, even one an embed
    // is named after (`client_id=eq.2&select=*,client:client_id(*)`).
    if filter.field.path.isEmpty, case .isValue(.null) = filter.expression.operation,
      let embed = node.embeds.first(where: { $0.key == filter.field.name })
    {
      return .embedPresence(key: embed.key, present: filter.expression.negated)
    }
    return .filter(filter)
  }

  private func condition(for tree: LogicTree, in node: ReadPlan) throws(RESTError) -> Condition {
    switch tree {
    case .filter(let filter):
      return try condition(for: filter, in: node)
    case .group(let negated, let conjunction, let children):
      var resolved: [Condition] = []
      for child in children { resolved.append(try condition(for: child, in: node)) }
      return .group(negated: negated, conjunction: conjunction, children: resolved)
    }
  }
}
