/// Deriving relationships from foreign keys, and finding the one an embed names
/// (PostgREST's `addM2MRels`, `addInverseRels`, `findRel`).
extension SchemaCache {
  /// A foreign key as the catalog lists it.
  struct ForeignKey: Sendable {
    var name: String
    var table: QualifiedName
    var foreignTable: QualifiedName
    /// (column of `table`, referenced column of `foreignTable`)
    var columns: [(String, String)]
  }

  /// All relationships PostgREST would see for these foreign keys: many-to-one and its inverse
  /// one-to-many (one-to-one both ways when the key columns are unique), and many-to-many through
  /// junction tables whose two foreign keys lie inside the junction's primary key.
  static func relationships(
    foreignKeys: [ForeignKey], tables: [QualifiedName: TableInfo]
  ) -> [Relationship] {
    var direct: [Relationship] = []
    for key in foreignKeys {
      guard let table = tables[key.table], let foreign = tables[key.foreignTable] else { continue }
      let ownColumns = Set(key.columns.map(\.0))
      let isOneToOne = table.uniqueKeys.contains { Set($0) == ownColumns }
      let inverse = key.columns.map { ($0.1, $0.0) }
      if isOneToOne {
        direct.append(
          Relationship(
            table: key.table, foreignTable: key.foreignTable,
            cardinality: .oneToOne(constraint: key.name, columns: key.columns),
            foreignTableIsView: foreign.isView))
        direct.append(
          Relationship(
            table: key.foreignTable, foreignTable: key.table,
            cardinality: .oneToOne(constraint: key.name, columns: inverse),
            foreignTableIsView: table.isView))
      } else {
        direct.append(
          Relationship(
            table: key.table, foreignTable: key.foreignTable,
            cardinality: .manyToOne(constraint: key.name, columns: key.columns),
            foreignTableIsView: foreign.isView))
        direct.append(
          Relationship(
            table: key.foreignTable, foreignTable: key.table,
            cardinality: .oneToMany(constraint: key.name, columns: inverse),
            foreignTableIsView: table.isView))
      }
    }
    var manyToMany: [Relationship] = []
    let byJunction = Dictionary(grouping: foreignKeys, by: \.table)
    for (junctionName, keys) in byJunction {
      guard let junction = tables[junctionName], keys.count >= 2 else { continue }
      let primaryKey = Set(junction.primaryKey)
      for first in keys {
        for second in keys where first.name != second.name {
          let used = Set(first.columns.map(\.0) + second.columns.map(\.0))
          guard used.isSubset(of: primaryKey),
            !junction.uniqueKeys.contains(where: { Set($0) == Set(first.columns.map(\.0)) }),
            !junction.uniqueKeys.contains(where: { Set($0) == Set(second.columns.map(\.0)) }),
            let target = tables[second.foreignTable]
          else { continue }
          manyToMany.append(
            Relationship(
              table: first.foreignTable, foreignTable: second.foreignTable,
              cardinality: .manyToMany(
                Relationship.Junction(
                  table: junctionName, sourceConstraint: first.name,
                  targetConstraint: second.name,
                  sourceColumns: first.columns.map { ($0.1, $0.0) },
                  targetColumns: second.columns.map { ($0.1, $0.0) })),
              foreignTableIsView: target.isView))
        }
      }
    }
    return direct + manyToMany.sorted { $0.foreignTable.name < $1.foreignTable.name }
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
      if !names.contains(target) {
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
