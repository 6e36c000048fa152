import SNMSupabase

/// Select lists as `SupabaseSelectItem`s.
extension StatementCompiler {
  func selectItems(_ list: SelectList) throws(Diagnostic) -> [SupabaseSelectItem] {
    list.indices.map { selectItem(at: $0, of: list) }
  }

  func selectItem(at node: Int, of list: SelectList) -> SupabaseSelectItem {
    switch list[node] {
    case .star:
      return .all
    case .field(let field) where field.column.column.text.isEmpty && field.aggregate != nil:
      return .count(as: field.alias?.text, cast: field.cast?.text)
    case .field(let field):
      return .column(
        column(field.column), as: field.alias?.text, aggregate: field.aggregate?.text,
        inputCast: field.inputCast?.text, cast: field.cast?.text)
    case .embed(let embed):
      return .embed(
        relation: embed.relation.text, alias: embed.alias?.text, hints: embed.hints.map(\.text),
        spread: embed.spread,
        items: list.items(of: node).indices.map { selectItem(at: $0, of: list) })
    }
  }
}
