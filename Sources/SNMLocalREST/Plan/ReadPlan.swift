import SNMGateway

/// One level of a read, resolved against the schema cache: where rows come from, which columns and
/// embeds to return, and the conditions, order and range of this level.
struct ReadPlan: Sendable {
  /// Where the rows of a level come from.
  enum Source: Sendable {
    /// A table or view.
    case relation(QualifiedName)
    /// A CTE of the same statement (`pgrst_source`, the rows a write or a function returned).
    case named(String)
  }

  var source: Source
  /// The table describing the rows (columns, relationships); nil for a function's anonymous record.
  var table: TableInfo?
  /// The name errors use for this level (the table name).
  var name: String
  /// The SQL alias in FROM; nil to refer to a relation by its qualified name.
  var alias: String?
  var fields: [SelectField]
  var embeds: [EmbedPlan] = []
  var conditions: [Condition] = []
  var order: [OrderTerm] = []
  var range: QueryParameters.Range?

  /// How this level's columns are qualified in SQL: `"t_1"` or `"public"."t"`.
  var reference: String {
    if let alias { return SQLText.identifier(alias) }
    if case .relation(let name) = source { return name.sql }
    return SQLText.identifier(name)
  }

  /// The level's whole row in SQL: its alias, else the relation's bare name (a qualified name
  /// is not a row expression).
  var rowReference: String {
    if let alias { return SQLText.identifier(alias) }
    if case .relation(let name) = source { return SQLText.identifier(name.name) }
    return SQLText.identifier(name)
  }

  /// Whether the level returns nothing (no columns, no embeds with columns): `rel()` used only to
  /// filter, which PostgREST leaves out of the output.
  var isEmpty: Bool {
    fields.isEmpty && embeds.allSatisfy(\.plan.isEmpty)
  }

  /// The output names a spread of this level adds to its parent (PostgREST's
  /// `generateSpreadSelectFields`): its fields' names (`*` as the table's columns), its embeds'
  /// keys, and the names of spreads within it.
  var spreadNames: [String] {
    var names: [String] = []
    for field in fields {
      if field.isStar {
        names += table?.columns.map(\.name) ?? []
      } else {
        names.append(field.alias ?? field.field.outputName)
      }
    }
    for embed in embeds where !embed.plan.isEmpty {
      if embed.isSpread {
        names += embed.plan.spreadNames
      } else {
        names.append(embed.key)
      }
    }
    return names
  }

  /// The embed whose key (alias or name) is `key`.
  func embed(_ key: String) -> EmbedPlan? {
    embeds.first { $0.key == key || $0.name == key }
  }

  /// Whether this level aggregates: an aggregate of its own, or one taken from a to-one spread
  /// within it. It is then grouped by everything else it selects.
  var isGrouped: Bool {
    fields.contains { $0.aggregate != nil } || embeds.contains { !$0.spreadAggregates.isEmpty }
  }

  /// Takes this level's aggregates for its parent to apply (PostgREST's
  /// `hoistSpreadAggFunctions`): a to-one spread's rows are at most one per parent row, so
  /// `...rel(amount.sum())` sums over the parent's groups. Each aggregated field stays as its
  /// input (cast kept), named by its alias, else the function's name; `count()` becomes the
  /// whole row. Aggregates this level took from its own to-one spreads go up with them.
  mutating func takeAggregates() -> [String: SpreadAggregate] {
    var taken: [String: SpreadAggregate] = [:]
    for index in fields.indices {
      guard let function = fields[index].aggregate else { continue }
      let name = fields[index].alias ?? function
      taken[name] = SpreadAggregate(function: function, cast: fields[index].aggregateCast)
      if fields[index].field.name == "*" && fields[index].field.path.isEmpty {
        fields[index].isRow = true
      }
      fields[index].alias = name
      fields[index].aggregate = nil
      fields[index].aggregateCast = nil
    }
    for index in embeds.indices where !embeds[index].spreadAggregates.isEmpty {
      taken.merge(embeds[index].spreadAggregates) { first, _ in first }
      embeds[index].spreadAggregates = [:]
    }
    return taken
  }
}

/// An aggregate a level applies to a column of a to-one spread within it.
struct SpreadAggregate: Sendable, Equatable {
  /// `sum`, `avg`, `min`, `max`, `count`.
  var function: String
  /// The cast of the result (`...rel(amount.sum()::text)`).
  var cast: String?
}

/// An embedded resource of a level: the relationship to it and its own plan.
struct EmbedPlan: Sendable {
  /// The output key (alias, else the name written).
  var key: String
  /// The name written in `select` (table, constraint or column).
  var name: String
  var relationship: Relationship
  var joinType: JoinType?
  var isSpread: Bool
  /// The alias of the lateral subquery that holds this embed's JSON.
  var lateralAlias: String
  var plan: ReadPlan
  /// For a to-one spread: the aggregates this level applies to the spread's columns, by output
  /// name (taken from the spread's levels by `ReadPlan.takeAggregates`).
  var spreadAggregates: [String: SpreadAggregate] = [:]

  var isInner: Bool { joinType == .inner }

  /// A spread of a to-many embed (v13): each of its columns becomes an array in the parent.
  var isToManySpread: Bool { isSpread && !relationship.isToOne }
}

/// A resolved condition of a level's WHERE.
indirect enum Condition: Sendable {
  case filter(Filter)
  /// `rel=is.null` / `rel=not.is.null` on an embed: whether the parent row has a match.
  case embedPresence(key: String, present: Bool)
  case group(negated: Bool, conjunction: LogicTree.Conjunction, children: [Condition])
}
