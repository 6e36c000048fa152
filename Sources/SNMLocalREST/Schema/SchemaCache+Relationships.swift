/// Deriving relationships from foreign keys, and finding the one an embed names
/// (PostgREST's `addM2MRels`, `addInverseRels`, `findRel`).
extension SchemaCache {
  /// A foreign key as the catalog lists it (in any schema: views of exposed schemas may take
  /// their keys from tables of others).
  struct ForeignKey: Sendable {
    var name: String
    var table: QualifiedName
    var foreignTable: QualifiedName
    /// (column of `table`, referenced column of `foreignTable`)
    var columns: [(String, String)]
    /// The tables' oids and the columns' numbers, which views' column origins name.
    var tableOID = 0
    var foreignOID = 0
    var columnNumbers: [(Int, Int)] = []
    /// Whether the key's columns are unique in `table` (one-to-one); nil: judged from `tables`.
    var isOneToOne: Bool? = nil
  }

  /// What views' keys are derived from: each view's column origins (resno -> table column, as
  /// `ViewColumnOrigins` reads them) and the primary keys of the tables they may come from.
  struct ViewKeySources: Sendable {
    /// View oid -> its columns' origins.
    var origins: [Int: [Int: ViewColumnOrigins.Origin]] = [:]
    /// Table oid -> its primary key's columns (name, number).
    var primaryKeys: [Int: [(String, Int)]] = [:]
  }

  /// All relationships PostgREST would see for these foreign keys (SchemaCache.hs): many-to-one
  /// (one-to-one when the key columns are unique) between tables, the same through views whose
  /// columns carry a key's columns unchanged (`addViewM2OAndO2ORels`: view to table, table to
  /// view, view to view, once for each choice of view column when a view repeats one), many-to-
  /// many through junctions (tables or views) whose two foreign keys lie inside their primary key
  /// (`addM2MRels`), and the inverse of each (`addInverseRels`). Only relationships between
  /// exposed relations (in `tables`) are kept. `tables` gets views' primary keys
  /// (`addViewPrimaryKeys`).
  static func relationships(
    foreignKeys: [ForeignKey], tables: inout [QualifiedName: TableInfo],
    views: ViewKeySources = ViewKeySources(), computed: [Relationship] = []
  ) -> [Relationship] {
    let viewKeys = ViewKeys(sources: views, tables: tables)
    for (name, primaryKey) in viewKeys.primaryKeys { tables[name]?.primaryKey = primaryKey }
    var forward: [Relationship] = []
    for key in foreignKeys {
      let ownColumns = Set(key.columns.map(\.0))
      let isOneToOne =
        key.isOneToOne
        ?? (tables[key.table]?.uniqueKeys.contains { Set($0) == ownColumns } ?? false)
      func make(_ from: QualifiedName, _ to: QualifiedName, _ pairs: [(String, String)])
        -> Relationship
      {
        Relationship(
          table: from, foreignTable: to,
          cardinality: isOneToOne
            ? .oneToOne(constraint: key.name, columns: pairs)
            : .manyToOne(constraint: key.name, columns: pairs),
          foreignTableIsView: tables[to]?.isView ?? false)
      }
      forward.append(make(key.table, key.foreignTable, key.columns))
      let fromViews = viewKeys.views(carrying: key.columnNumbers.map(\.0), of: key.tableOID)
      let toViews = viewKeys.views(carrying: key.columnNumbers.map(\.1), of: key.foreignOID)
      for (view, columns) in fromViews {
        forward.append(make(view, key.foreignTable, Array(zip(columns, key.columns.map(\.1)))))
      }
      for (view, columns) in toViews {
        forward.append(make(key.table, view, Array(zip(key.columns.map(\.0), columns))))
      }
      for (view, columns) in fromViews {
        for (other, otherColumns) in toViews {
          forward.append(make(view, other, Array(zip(columns, otherColumns))))
        }
      }
    }
    forward = forward.filter { tables[$0.table] != nil && tables[$0.foreignTable] != nil }
    var manyToMany: [Relationship] = []
    let byJunction = Dictionary(grouping: forward, by: \.table)
    for (junctionName, outgoing) in byJunction {
      guard let junction = tables[junctionName] else { continue }
      let primaryKey = Set(junction.primaryKey)
      for first in outgoing {
        guard case .manyToOne(let firstName, let firstPairs) = first.cardinality else { continue }
        for second in outgoing {
          guard case .manyToOne(let secondName, let secondPairs) = second.cardinality,
            firstName != secondName,
            Set(firstPairs.map(\.0) + secondPairs.map(\.0)).isSubset(of: primaryKey)
          else { continue }
          manyToMany.append(
            Relationship(
              table: first.foreignTable, foreignTable: second.foreignTable,
              cardinality: .manyToMany(
                Relationship.Junction(
                  table: junctionName, sourceConstraint: firstName,
                  targetConstraint: secondName,
                  sourceColumns: firstPairs.map { ($0.1, $0.0) },
                  targetColumns: secondPairs.map { ($0.1, $0.0) })),
              foreignTableIsView: second.foreignTableIsView))
        }
      }
    }
    var all = forward + manyToMany
    for relationship in forward {
      let inverse: Relationship.Cardinality
      switch relationship.cardinality {
      case .manyToOne(let name, let pairs):
        inverse = .oneToMany(constraint: name, columns: pairs.map { ($0.1, $0.0) })
      case .oneToOne(let name, let pairs):
        inverse = .oneToOne(constraint: name, columns: pairs.map { ($0.1, $0.0) })
      default: continue
      }
      all.append(
        Relationship(
          table: relationship.foreignTable, foreignTable: relationship.table,
          cardinality: inverse, foreignTableIsView: tables[relationship.table]?.isView ?? false))
    }
    // Computed relationships of exposed tables; one named after a table replaces the detected
    // relationships to that table (getOverrideRelationshipsMap).
    var seen = Set<String>()
    let kept = computed.filter { relationship in
      guard tables[relationship.table] != nil, tables[relationship.foreignTable] != nil,
        case .computed(let function, _) = relationship.cardinality
      else { return false }
      return seen.insert("\(relationship.table)|\(function.name)").inserted
    }
    let overridden = Set(
      kept.compactMap { relationship -> String? in
        guard case .computed(let function, _) = relationship.cardinality else { return nil }
        return "\(relationship.table)|\(function)"
      })
    all.removeAll { overridden.contains("\($0.table)|\($0.foreignTable)") }
    return (all + kept).sorted(by: Relationship.precedes)
  }

  /// Convenience for a cache built from tables alone (tests, fuzzing).
  static func relationships(
    foreignKeys: [ForeignKey], tables: [QualifiedName: TableInfo]
  ) -> [Relationship] {
    var copy = tables
    return relationships(foreignKeys: foreignKeys, tables: &copy)
  }

  /// The relationship an embed `target[!hint]` names from `origin`.
  ///
  /// The target is a table name, a foreign key name or a one-column foreign key's column; the
  /// hint is a foreign key name, a column of either side, or a junction table. Throws 400
  /// PGRST200 when none matches and 300 PGRST201 when several do.
  func relationship(
    from origin: QualifiedName, to target: String, hint: String?
  ) throws(RESTError) -> Relationship {
    let candidates = (relationships[origin] ?? []).filter { relationship in
      if case .computed(let function, _) = relationship.cardinality {
        return target == function.name
      }
      let single = relationship.singleColumnPair
      let matchesColumn = { (name: String) in single?.0 == name }
      let matchesForeignColumn = { (name: String) in single?.1 == name }
      let matchesConstraint = { (name: String) in relationship.constraint == name }
      let matchesJunction = { (name: String) -> Bool in
        if case .manyToMany(let junction) = relationship.cardinality {
          return junction.table.name == name
        }
        return false
      }
      let isOneToMany: Bool
      let isManyToOne: Bool
      switch relationship.cardinality {
      case .oneToMany: (isOneToMany, isManyToOne) = (true, false)
      case .manyToOne: (isOneToMany, isManyToOne) = (false, true)
      default: (isOneToMany, isManyToOne) = (false, false)
      }
      if relationship.isSelf {
        guard let hint else {
          return (target == relationship.foreignTable.name && isOneToMany)
            || (matchesColumn(target) && isManyToOne)
        }
        return target == relationship.foreignTable.name && isOneToMany
          && matchesForeignColumn(hint)
      }
      guard let hint else {
        return target == relationship.foreignTable.name
          || (matchesConstraint(target) && !relationship.foreignTableIsView)
          || (matchesColumn(target) && !relationship.foreignTableIsView)
      }
      return target == relationship.foreignTable.name
        && (matchesConstraint(hint) || matchesColumn(hint) || matchesForeignColumn(hint)
          || matchesJunction(hint))
    }
    if candidates.count == 1 { return candidates[0] }
    if candidates.isEmpty {
      throw noRelationship(from: origin, to: target, hint: hint)
    }
    throw RESTError(
      status: 300, code: "PGRST201",
      message:
        "Could not embed because more than one relationship was found for '\(origin.name)' and '\(target)'",
      details: .array(candidates.map(\.ambiguityDescription)),
      hint: .string(
        "Try changing '\(target)' to one of the following: "
          + candidates.map(\.hintName).joined(separator: ", ")
          + ". Find the desired relationship in the 'details' key."))
  }

  private func noRelationship(
    from origin: QualifiedName, to target: String, hint: String?
  ) -> RESTError {
    let schema = origin.schema
    var suggestion: String? = nil
    if let known = relationships[origin] {
      let names = Array(Set(known.map(\.foreignTable.name))).sorted()
      // A target equal to a related table but for case gets no hint (PostgREST drops
      // FuzzySet's exact match, score 1).
      if !names.contains(where: { $0.lowercased() == target.lowercased() }) {
        suggestion = FuzzyMatch.best(target, among: names, minimum: 0.33).map {
          "Perhaps you meant '\($0)' instead of '\(target)'."
        }
      }
    } else {
      let origins = Array(Set(relationships.keys.filter { $0.schema == schema }.map(\.name)))
      suggestion = FuzzyMatch.best(origin.name, among: origins.sorted(), minimum: 0.33).map {
        "Perhaps you meant '\($0)' instead of '\(origin.name)'."
      }
    }
    let hintText = hint.map { "' using the hint '\($0)" } ?? ""
    return RESTError(
      status: 400, code: "PGRST200",
      message:
        "Could not find a relationship between '\(origin.name)' and '\(target)' in the schema cache",
      details: .string(
        "Searched for a foreign key relationship between '\(origin.name)' and '\(target)\(hintText)' in the schema '\(schema)', but no matches were found."
      ),
      hint: .optional(suggestion))
  }
}
