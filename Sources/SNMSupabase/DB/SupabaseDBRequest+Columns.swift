extension SupabaseSelectItem {
  /// The key this item gives each row of the answer, as PostgREST names it: the alias, else the
  /// column (`age::text` -> `age`), the last key of a JSON path (`data->>blood` -> `blood`), the
  /// aggregate (`age.sum()` -> `sum`, `count()` -> `count`) or the embedded relation. Nil for `*`,
  /// a spread embed and raw text, whose keys the list alone does not say.
  /// A JSON path is named by its last key that is no array index (`data->a->0` -> `a`), else
  /// by the column (`data->0` -> `data`).
  public var resultKey: String? {
    switch self {
    case .all, .raw: return nil
    case .column(let column, let alias, let aggregate, _, _):
      if let alias { return alias }
      if let aggregate { return aggregate }
      return column.jsonPath.last { !SupabaseColumn.isIndex($0.key) }?.key ?? column.name
    case .embed(let relation, let alias, _, let spread, _):
      return spread ? nil : alias ?? relation
    }
  }

  /// The key every row of a 2xx answer holds for this item, whichever PostgREST answers:
  /// ``resultKey`` where it is certain. Nil for `*`, a spread and raw text (their keys are not
  /// in the list), a JSON path ending in an array index and no alias (PostgREST names it by its
  /// last key since version 10; before, otherwise), an embed without a column or `*` of its own
  /// (an empty embed, `rel()`, is left out of the rows), a column of an embed, and a name past
  /// Postgres' 63 bytes (which it cuts) or holding NUL (which PostgREST cuts at).
  var certainKey: String? {
    switch self {
    case .all, .raw: return nil
    case .column(let column, let alias, let aggregate, _, _):
      guard column.embedPath.isEmpty else { return nil }
      if alias == nil, aggregate == nil, let last = column.jsonPath.last,
        SupabaseColumn.isIndex(last.key)
      {
        return nil
      }
    case .embed(_, _, _, let spread, let items):
      guard !spread else { return nil }
      let ownColumns = items.contains {
        switch $0 {
        case .all, .column: true
        case .embed, .raw: false
        }
      }
      guard ownColumns else { return nil }
    }
    guard let key = resultKey, key.utf8.count <= 63, !key.utf8.contains(0) else { return nil }
    return key
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
    guard case .items(let items) = selectList else { return nil }
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

  /// The select (or `returning`) list the request sends, the last one given; nil without one.
  var selectList: SupabaseSelectList? {
    var list: SupabaseSelectList?
    for case .setQuery(let parameters) in calls {
      for parameter in parameters {
        if case .select(let items, _) = parameter.kind { list = items }
      }
    }
    return list
  }

  /// The keys each row of a 2xx answer must hold (``SupabaseSelectItem/certainKey``), in the
  /// list's order, without repeats; empty when the list names none for certain, or there is
  /// no list, or the answer holds no rows to check (``Endpoint/answerShape`` nil: a function's
  /// result, csv, a plan, HEAD, a write without `returning`).
  var certainKeys: [String] {
    guard endpoint.answerShape != nil, case .items(let items) = selectList else { return [] }
    var keys: [String] = []
    for item in items {
      if let key = item.certainKey, !keys.contains(key) { keys.append(key) }
    }
    return keys
  }
}
