/// SQL for one filter; the value is always a bound parameter, the column always quoted
/// (SqlFragment.hs `pgFmtFilter`).
extension SQLWriter {
  /// `[NOT ](column op $n)`.
  mutating func filter(_ filter: Filter, reference: String, table: TableInfo?) {
    if filter.expression.negated { append("NOT ") }
    append("(")
    switch filter.expression.operation {
    case .compare(let op, let quantifier, let value):
      fieldExpression(filter.field, reference: reference, table: table)
      append(" \(op.sql) ")
      let operand = (op == .like || op == .ilike) ? SQLWriter.likePattern(value) : value
      if let quantifier {
        append(quantifier == .any ? "ANY(" : "ALL(")
        bind(operand)
        append(")")
      } else {
        bind(operand)
      }
    case .list(let values):
      fieldExpression(filter.field, reference: reference, table: table)
      if values == [""] {
        append(" = ANY('{}')")
      } else {
        append(" = ANY(")
        bind(SQLWriter.arrayLiteral(values))
        append(")")
      }
    case .isValue(let value):
      fieldExpression(filter.field, reference: reference, table: table)
      append(" IS " + value.sql)
    case .isDistinct(let value):
      fieldExpression(filter.field, reference: reference, table: table)
      append(" IS DISTINCT FROM ")
      bind(value)
    case .textSearch(let op, let config, let query):
      let column = filter.field.path.isEmpty ? table?.column(filter.field.name) : nil
      if column?.isTextSearchVector == true {
        fieldExpression(filter.field, reference: reference, table: table)
      } else {
        append("to_tsvector(")
        if let config {
          bind(config)
          append(", ")
        }
        fieldExpression(filter.field, reference: reference, table: table)
        append(")")
      }
      append(" @@ \(op.function)(")
      if let config {
        bind(config)
        append(", ")
      }
      bind(query)
      append(")")
    }
    append(")")
  }

  /// A LIKE pattern with PostgREST's `*` for `%`.
  static func likePattern(_ value: String) -> String {
    String(String.UnicodeScalarView(value.unicodeScalars.map { $0 == "*" ? "%" : $0 }))
  }

  /// A Postgres array literal with every element quoted: `{"a","b\"c"}`.
  static func arrayLiteral(_ values: [String]) -> String {
    var out = "{"
    for (index, value) in values.enumerated() {
      if index > 0 { out += "," }
      out += "\""
      for scalar in value.unicodeScalars {
        if scalar == "\"" || scalar == "\\" { out += "\\" }
        out.unicodeScalars.append(scalar)
      }
      out += "\""
    }
    return out + "}"
  }
}
