extension SupabaseSelectItem {
  /// The key this item gives each row of the answer, as PostgREST names it: the alias, else the
  /// column (`age::text` -> `age`), the last key of a JSON path (`data->>blood` -> `blood`), the
  /// aggregate (`age.sum()` -> `sum`, `count()` -> `count`) or the embedded relation. Nil for `*`,
  /// a spread embed and raw text, whose keys the list alone does not say.
  public var resultKey: String? {
    switch self {
    case .all, .raw: return nil
    case .column(let column, let alias, let aggregate, _, _):
      if let alias { return alias }
      if let aggregate { return aggregate }
      return column.jsonPath.last?.key ?? column.name
    case .embed(let relation, let alias, _, let spread, _):
      return spread ? nil : alias ?? relation
    }
  }
}

extension SupabaseDBRequest {
  /// The keys of the rows the answer holds, in order, when the select (or `returning`) list says
  /// them: the header of an empty result. `*` stands for `starColumns` (the table's columns, when
  /// the caller knows them). Nil when the list cannot say (no list, `*` unknown, a spread embed).
  ///
  /// ```swift
  /// // select=id,nick:name,owner:user_info(name)
  /// request.resultColumns(starColumns: nil)   // ["id", "nick", "owner"]
  /// ```
  public func resultColumns(starColumns: [String]?) -> [String]? {
    var list: SupabaseSelectList?
    for case .setQuery(let parameters) in calls {
      for parameter in parameters {
        if case .select(let items, _) = parameter.kind { list = items }
      }
    }
    guard case .items(let items) = list else { return nil }
    var names: [String] = []
    for item in items {
      if case .all = item {
        guard let starColumns else { return nil }
        names += starColumns.filter { !names.contains($0) }
      } else {
        guard let key = item.resultKey else { return nil }
        if !names.contains(key) { names.append(key) }
      }
    }
    return names.isEmpty ? nil : names
  }
}
