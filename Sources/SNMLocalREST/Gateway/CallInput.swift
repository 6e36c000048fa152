/// What a function call takes from the request besides its route (PostgREST 13's `getPayload`
/// and `returnedColumns`): the arguments object of a POST's JSON body, and the computed columns
/// its rows are read with.
enum CallInput {
  /// The names the root of a call's `select`, filters and order give that are no column of the
  /// table whose rows it returns: computed columns, which the call's own SELECT takes.
  static func computedNames(_ query: QueryParameters, table: TableInfo) -> [String] {
    var names: [String] = []
    for case .field(let field) in query.select where !field.isStar && !field.isRow {
      names.append(field.field.name)
    }
    for (path, filter) in query.filters where path.isEmpty { names.append(filter.field.name) }
    for (path, terms) in query.order where path.isEmpty {
      names += terms.filter { $0.relation == nil }.map(\.field.name)
    }
    let columns = Set(table.columns.map(\.name))
    var seen: Set<String> = []
    return names.filter { $0 != "*" && !columns.contains($0) && seen.insert($0).inserted }
  }

  /// The object a POST's JSON body calls with, and its argument names (PostgREST 13's
  /// `getPayload`): an object and its keys; an array's first object, every element an object
  /// with the same keys (else 400 PGRST102 "All object keys must match"), or none for `[]`; with
  /// `columns=`, the names listed and the body (an array's first element) unchecked. Nil for any
  /// other body.
  static func object(
    _ body: RequestBody, columns: [String]?
  ) throws(RESTError) -> (object: String, names: Set<String>)? {
    var object = body.text
    var keys: Set<String>
    if let members = body.value.objectValue {
      keys = Set(members.map(\.key))
    } else if let rows = body.value.arrayValue {
      guard let first = rows.first else { return ("{}", Set(columns ?? [])) }
      object = first.serialized()
      keys = Set(first.objectValue?.map(\.key) ?? [])
      if columns == nil {
        let uniform = rows.allSatisfy { row in
          row.objectValue.map { Set($0.map(\.key)) == keys } ?? false
        }
        guard uniform else { throw RESTError.invalidBody("All object keys must match") }
      }
    } else {
      return nil
    }
    if let columns { keys = Set(columns) }
    return (object, keys)
  }
}
