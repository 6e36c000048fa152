/// Which views carry which tables' key columns, and the primary keys views get from them
/// (PostgREST's `allViewsKeyDependencies` and `addViewPrimaryKeys`).
///
/// A view column whose origin is a table column, through any number of views over views, carries
/// that column. A view carries a key when it carries every column of it; when it repeats a column
/// (`select id as a, id as b`), each choice of view column counts, as PostgREST's
/// `expandKeyDepCols` does.
struct ViewKeys {
  /// Exposed view -> (table oid, column number) -> the view's columns carrying it, in order.
  private var carried: [QualifiedName: [ViewColumnOrigins.Origin: [String]]] = [:]
  /// Views' primary keys: for each table key the view carries whole, its first column carrying
  /// each key column.
  private(set) var primaryKeys: [QualifiedName: [String]] = [:]

  init(sources: SchemaCache.ViewKeySources, tables: [QualifiedName: TableInfo]) {
    guard !sources.origins.isEmpty else { return }
    var views: [Int: TableInfo] = [:]
    for table in tables.values where table.isView { views[table.oid] = table }
    for (oid, origins) in sources.origins {
      guard let view = views[oid] else { continue }
      var map: [ViewColumnOrigins.Origin: [String]] = [:]
      for number in origins.keys.sorted() {
        guard number >= 1, number <= view.columns.count,
          let origin = Self.base(origins[number], in: sources.origins)
        else { continue }
        map[origin, default: []].append(view.columns[number - 1].name)
      }
      carried[view.name] = map
      var primaryKey: [String] = []
      for (tableOID, columns) in sources.primaryKeys.sorted(by: { $0.key < $1.key }) {
        let firsts = columns.compactMap { map[.init(oid: tableOID, column: $0.1)]?.first }
        if firsts.count == columns.count { primaryKey += firsts }
      }
      if !primaryKey.isEmpty { primaryKeys[view.name] = primaryKey }
    }
  }

  /// The origin of a column in a table, following views over views (at most 32 deep).
  private static func base(
    _ origin: ViewColumnOrigins.Origin?, in views: [Int: [Int: ViewColumnOrigins.Origin]]
  ) -> ViewColumnOrigins.Origin? {
    var current = origin
    for _ in 0..<32 {
      guard let step = current else { return nil }
      guard let inner = views[step.oid] else { return step }
      current = inner[step.column]
    }
    return nil
  }

  /// Each view carrying all of `columns` (numbers) of table `oid`, once per choice of its
  /// columns, with the view columns in the key's order.
  func views(carrying columns: [Int], of oid: Int) -> [(QualifiedName, [String])] {
    guard oid != 0, !columns.isEmpty else { return [] }
    var found: [(QualifiedName, [String])] = []
    for (view, map) in carried.sorted(by: { $0.key.description < $1.key.description }) {
      let choices = columns.map { map[.init(oid: oid, column: $0)] ?? [] }
      guard choices.allSatisfy({ !$0.isEmpty }) else { continue }
      var combinations: [[String]] = [[]]
      for options in choices {
        combinations = combinations.flatMap { prefix in options.map { prefix + [$0] } }
      }
      for combination in combinations { found.append((view, combination)) }
    }
    return found
  }
}
