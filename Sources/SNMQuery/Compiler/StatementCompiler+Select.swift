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
      let base = SupabaseSelectItem.column(column(field.column), as: field.alias?.text, cast: nil)
      guard let aggregate = field.aggregate else {
        return .column(column(field.column), as: field.alias?.text, cast: field.cast?.text)
      }
      return .raw(
        base.wire + "." + aggregate.text + "()" + (field.cast.map { "::" + $0.text } ?? ""))
    case .embed(let embed):
      var join: SupabaseSelectItem.Join?
      var hints: [String] = []
      for hint in embed.hints {
        switch hint.text.lowercased() {
        case "inner" where join == nil: join = .inner
        case "left" where join == nil: join = .left
        default: hints.append(hint.text)
        }
      }
      let items = embed.items.map(selectItem)
      let structured = SupabaseSelectItem.embed(
        embed.relation.text, as: embed.alias?.text, hint: hints.first, join: join,
        spread: embed.spread,
        items: items)
      guard hints.count > 1 else { return structured }
      // More than one hint: keep them all, in the order written.
      var text = embed.spread ? "..." : ""
      if let alias = embed.alias { text += PostgresLiteral.name(alias.text) + ":" }
      text += PostgresLiteral.name(embed.relation.text)
      text += embed.hints.map { "!" + PostgresLiteral.name($0.text) }.joined()
      return .raw(text + "(" + items.map(\.wire).joined(separator: ",") + ")")
    }
  }
}
