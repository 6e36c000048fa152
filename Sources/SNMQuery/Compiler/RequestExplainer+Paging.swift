import SNMSupabase

/// `explain` of a select with `all`: its first page, then the requests that follow it.
extension RequestExplainer {
  /// The select with `all` that `statement` sends (itself, or inside `explain`, `let` or
  /// `as service`); nil for any other statement.
  public static func pagedQuery(_ statement: Statement) -> QueryStatement? {
    switch statement.kind {
    case .query(let query):
      guard case .select = query.action, query.modifiers.rare?.all != nil else { return nil }
      return query
    case .shell(.explain(let inner, _)), .asService(let inner):
      return pagedQuery(inner)
    case .let(let binding):
      if case .statement(let inner) = binding.value { return pagedQuery(inner) }
      return nil
    default:
      return nil
    }
  }

  /// One request in the chosen format, and for a select with `all` what follows its first page.
  public static func render(
    _ request: SupabaseDBRequest, format: ExplainFormat, of statement: Statement
  ) -> String {
    withPaging(render(request, format: format), of: statement, format: format, tiebreak: nil)
  }

  /// `rendered` (the first page's request) followed, for a select with `all`, by what snm sends
  /// after it: in text a `pages` section, in curl `#` comments; json as it is (one request).
  /// `tiebreak` is the order added to the statement's own (nil: not known offline).
  public static func withPaging(
    _ rendered: String, of statement: Statement, format: ExplainFormat, tiebreak: [String]?
  ) -> String {
    guard format != .json, let query = pagedQuery(statement) else { return rendered }
    let rows = PageWindow.defaultRows
    var lines = [
      "limit=\(rows) a page; the next pages add \(rows), \(2 * rows), ... to the offset until "
        + "one comes back empty"
    ]
    if let tiebreak {
      if tiebreak.isEmpty {
        lines.append("ordered as written (no primary key known to add)")
      } else {
        lines.append("ordered by the primary key (\(tiebreak.joined(separator: ", "))) after it")
      }
    } else {
      lines.append(
        query.modifiers.order.isEmpty
          ? "the table's primary key orders the pages (read from the schema when it runs)"
          : "the table's primary key is added after 'order by' (read from the schema when it runs)")
    }
    switch format {
    case .text:
      var text = rendered.hasSuffix("\n") ? String(rendered.dropLast()) : rendered
      var section: [String] = []
      appendSection("pages", lines, to: &section)
      text += "\n" + section.joined(separator: "\n") + "\n"
      return text
    case .curl:
      return rendered + lines.map { "# " + $0 + "\n" }.joined()
    case .json:
      return rendered
    }
  }
}
