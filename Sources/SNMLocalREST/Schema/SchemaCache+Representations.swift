/// PostgREST's domain representations (SchemaCache/Representations.hs, Plan.hs
/// `withTransformer`): an implicit cast by a function from a domain to json formats that domain's
/// columns in answers; one from json parses them in request bodies; one from text parses a
/// filter's value. Without a cast a domain reads and writes as its base type.
///
/// The casts are read with the schema cache (`representations` of the catalog query) and pinned
/// on the columns of tables and views, so a request looks nothing up: a table without
/// represented columns costs what it did.
extension SchemaCache {
  /// A cast's source and target types, as `format_type` names them (`public.color`, `json`).
  struct RepresentationKey: Hashable, Sendable {
    var source: String
    var target: String
  }

  /// Pins each column's representations (by its type) on `tables`.
  static func applyRepresentations(
    _ casts: [RepresentationKey: QualifiedName], to tables: inout [QualifiedName: TableInfo]
  ) {
    guard !casts.isEmpty else { return }
    for (name, table) in tables {
      var changed = table
      for index in changed.columns.indices {
        let type = changed.columns[index].type
        let representation = ColumnRepresentation(
          toJSON: casts[RepresentationKey(source: type, target: "json")],
          fromJSON: casts[RepresentationKey(source: "json", target: type)],
          fromText: casts[RepresentationKey(source: "text", target: type)])
        guard !representation.isEmpty else { continue }
        changed.columns[index].representation = representation
        changed.hasRepresentations = true
        if representation.toJSON != nil { changed.hasOutputRepresentations = true }
      }
      if changed.hasRepresentations { tables[name] = changed }
    }
  }
}

/// The functions of a domain column's representations.
struct ColumnRepresentation: Sendable {
  /// `domain AS json`: formats the column in JSON answers.
  var toJSON: QualifiedName?
  /// `json AS domain`: parses the column's value in a JSON body.
  var fromJSON: QualifiedName?
  /// `text AS domain`: parses a filter's value.
  var fromText: QualifiedName?

  var isEmpty: Bool { toJSON == nil && fromJSON == nil && fromText == nil }
}
