/// Parses `order=` (PostgREST's `pOrder`): `col[->path][.asc|.desc][.nullsfirst|.nullslast]`
/// and `rel(col).desc` for a to-one embed, separated by `,`.
///
///     try OrderParser.parse("name.desc.nullslast,id")
enum OrderParser {
  static func parse(_ text: String) throws(RESTError) -> [OrderTerm] {
    var cursor = ParseCursor(text, what: "order")
    var terms: [OrderTerm] = []
    repeat {
      terms.append(try term(&cursor))
    } while cursor.consume(",")
    if !cursor.isAtEnd {
      throw cursor.failure(expecting: "\",\" or end of input")
    }
    return terms
  }

  private static func term(_ cursor: inout ParseCursor) throws(RESTError) -> OrderTerm {
    cursor.skipSpace()
    var relation: String? = nil
    var field: FieldPath
    let start = cursor.position
    let name = try cursor.fieldName()
    if cursor.consume("(") {
      relation = name
      field = try cursor.field()
      try cursor.expect(")")
    } else {
      cursor.position = start
      field = try cursor.field()
    }
    var term = OrderTerm(relation: relation, field: field)
    if cursor.looksAt(".asc") && !continuesWord(cursor, after: 4) {
      cursor.position += 4
      term.descending = false
    } else if cursor.looksAt(".desc") && !continuesWord(cursor, after: 5) {
      cursor.position += 5
      term.descending = true
    }
    // Parsec's `string "nullslast"` takes the word's prefix: `nullslasttt` fails after it.
    var option = false
    if cursor.looksAt(".nullsfirst") {
      cursor.position += 11
      term.nullsFirst = true
      option = true
    } else if cursor.looksAt(".nullslast") {
      cursor.position += 10
      term.nullsFirst = false
      option = true
    }
    cursor.skipSpace()
    if option, let next = cursor.current, next != "," {
      throw cursor.failure(
        details: "unexpected '\(Character(next))' expecting \",\" or end of input")
    }
    guard cursor.isAtEnd || cursor.current == "," else {
      if cursor.current == "." {
        cursor.position += 1
        throw cursor.failure(
          expecting: term.descending == nil && term.nullsFirst == nil
            ? "\"asc\", \"desc\", \"nullsfirst\" or \"nullslast\""
            : "\"nullsfirst\" or \"nullslast\"")
      }
      throw cursor.failure(expecting: "\",\" or end of input")
    }
    return term
  }

  private static func continuesWord(_ cursor: ParseCursor, after count: Int) -> Bool {
    guard let next = cursor.peek(count) else { return false }
    return next != "," && next != "." && next != " "
  }
}
