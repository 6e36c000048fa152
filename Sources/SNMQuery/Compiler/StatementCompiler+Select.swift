import SNMSupabase

/// Select lists as `SupabaseSelectItem`s.
extension StatementCompiler {
  func selectItems(_ items: [SelectItem]) throws(Diagnostic) -> [SupabaseSelectItem] {
    items.map(selectItem)
  }

  func selectItem(_ item: SelectItem) -> SupabaseSelectItem {
    switch item {
    case .star:
      return .all
    case .field(let field):
      return .column(
        column(field.column), as: field.alias?.text, aggregate: field.aggregate?.text,
        cast: field.cast?.text)
    case .embed(let embed):
      if embed.relation.text == "count" && !embed.relation.quoted && embed.items.isEmpty
        && embed.hints.isEmpty && !embed.spread
      {
        return .count(as: embed.alias?.text)
      }
      return .embed(
        relation: embed.relation.text, alias: embed.alias?.text, hints: embed.hints.map(\.text),
        spread: embed.spread, items: embed.items.map(selectItem))
    }
  }
}
