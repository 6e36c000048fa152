import SNMGateway

/// SQL for one filter; the value is always a bound parameter, the column always quoted
/// (SqlFragment.hs `pgFmtFilter`).
extension SQLWriter {
  /// `[NOT ](column op $n)`.
  ///
  /// On a column whose domain has a `text AS domain` cast, the value of a comparison or `in`
  /// list is parsed by the cast's function (PostgREST's `withTextParse`): `col = fn($1::text)`,
  /// `col = ANY(SELECT fn(unnest($1::text[])))`; `like`/`ilike`, `is`, `isdistinct` and the text
  /// searches take the value as it is.
  mutating func filter(_ filter: Filter, reference: String, table: TableInfo?) {
    if filter.expression.negated { append("NOT ") }
    append("(")
    var parser: QualifiedName? = nil
    if let table, table.hasRepresentations, filter.field.path.isEmpty {
      parser = table.column(filter.field.name)?.representation?.fromText
    }
    switch filter.expression.operation {
    case .compare(let op, let quantifier, let value):
      fieldExpression(filter.field, reference: reference, table: table)
      append(" \(op.sql) ")
      let isLike = op == .like || op == .ilike
      let operand = isLike ? SQLWriter.likePattern(value) : value
      let parser = isLike ? nil : parser
      if let quantifier { append(quantifier == .any ? "ANY(" : "ALL(") }
      if let parser {
        append(parser.sql + "(")
        bind(operand, as: "text")
        append(")")
      } else {
        bind(operand)
      }
      if quantifier != nil { append(")") }
    case .list(let values):
      fieldExpression(filter.field, reference: reference, table: table)
      if values == [""] {
        append(" = ANY('{}')")
      } else if let parser {
        append(" = ANY(SELECT " + parser.sql + "(unnest(")
        bind(SQLText.arrayLiteral(values), as: "text[]")
        append(")))")
      } else {
        append(" = ANY(")
        bind(SQLText.arrayLiteral(values))
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
}
