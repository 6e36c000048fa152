import SNMSupabase

/// The names a statement uses, checked against a project's schema as last seen (the cached
/// OpenAPI document): a table, view, column or function the schema does not have is a warning
/// with the closest name it has (`dog_profle`: did you mean 'dog_profile'?).
///
/// ```swift
/// let check = SchemaCheck(schema: cachedSchema)
/// let warnings = check.diagnostics(for: statement)
/// ```
/// Warnings, not errors: the cache may be older than the project. Only the `public` schema and
/// the statement's own table are checked (embedded resources are not).
public struct SchemaCheck: Sendable {
  public let schema: DatabaseSchema

  public init(schema: DatabaseSchema) {
    self.schema = schema
  }

  public func diagnostics(for statement: Statement) -> [Diagnostic] {
    switch statement.kind {
    case .query(let query):
      guard query.table.schema == nil || query.table.schema?.text == "public" else { return [] }
      guard let table = schema.table(named: query.table.name.text) else {
        return [unknownTable(query.table.name)]
      }
      return columns(of: query).compactMap { unknownColumn($0, of: table) }
    case .rpc(let rpc):
      guard rpc.function.schema == nil, schema.function(named: rpc.function.name.text) == nil
      else { return [] }
      let name = rpc.function.name
      return [
        Diagnostic(
          .unknownFunction(name.text), at: name.range, severity: .warning,
          help: suggestion(name.text, among: schema.functions.map(\.name)))
      ]
    case .shell(.describe(let table, _)):
      guard table.schema == nil, schema.table(named: table.name.text) == nil,
        schema.function(named: table.name.text) == nil
      else { return [] }
      return [unknownTable(table.name)]
    case .let(let binding):
      guard case .statement(let inner) = binding.value else { return [] }
      return diagnostics(for: inner)
    default:
      return []
    }
  }

  func unknownTable(_ name: Name) -> Diagnostic {
    Diagnostic(
      .unknownTable(name.text), at: name.range, severity: .warning,
      help: suggestion(name.text, among: schema.tables.map(\.name) + schema.functions.map(\.name)))
  }

  func unknownColumn(_ name: Name, of table: TableSchema) -> Diagnostic? {
    guard table.column(named: name.text) == nil else { return nil }
    return Diagnostic(
      .unknownColumn(name.text, table: table.name), at: name.range, severity: .warning,
      help: suggestion(name.text, among: table.columns.map(\.name)))
  }

  func suggestion(_ word: String, among names: [String]) -> String {
    DidYouMean.suggest(word, among: names).map { "did you mean '\($0)'?" }
      ?? "the schema was cached when snm last reached the project"
  }

  /// The columns of the query's own table it names: selected, filtered and ordered by.
  func columns(of query: QueryStatement) -> [Name] {
    var names: [Name] = []
    if case .select(let items, _) = query.action {
      for case .field(let field) in items where field.column.embedPath.isEmpty {
        if field.column.column.text != "*" { names.append(field.column.column) }
      }
    }
    if case .condition(let condition) = query.filter { collect(condition, into: &names) }
    for item in query.modifiers.order where item.column.embedPath.isEmpty {
      names.append(item.column.column)
    }
    return names
  }

  func collect(_ condition: Condition, into names: inout [Name]) {
    switch condition.shape {
    case .predicate(let predicate):
      if predicate.column.embedPath.isEmpty { names.append(predicate.column.column) }
    case .and(let parts, _), .or(let parts, _):
      for part in parts { collect(part, into: &names) }
    case .not(let inner, _):
      collect(inner, into: &names)
    }
  }
}
