/// Parses `order=` (PostgREST's `pOrder`): `col[->path][.asc|.desc][.nullsfirst|.nullslast]`
/// and `rel(col).desc` for a to-one embed, separated by `,`.
///
///     try OrderParser.parse("name.desc.nullslast,id")
///
/// Errors are worded as Parsec words `pOrder`'s: `asc`, `desc` and the nulls options are words
/// taken as prefixes (`descc` fails after `desc`), a misspelt one is reported where it starts
/// with the first character that differs from the first word tried, and an embed's term that
/// fails anywhere is reported where its `(` starts (PostgREST then reads the name as a column).
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

  /// What Parsec expects after a plain column name (`pField`'s letters, `pOrder`'s options).
  static let afterName =
    "letter, digit, \"-\", \"->>\", \"->\", delimiter (.), \",\" or end of input"

  private static func term(_ cursor: inout ParseCursor) throws(RESTError) -> OrderTerm {
    cursor.skipSpace()
    let start = cursor.position
    let name = try cursor.fieldName()
    if cursor.current == "(" {
      let open = cursor.position
      do throws(RESTError) {
        cursor.position += 1
        let field = try cursor.field()
        try cursor.expect(")")
        return try options(&cursor, OrderTerm(relation: name, field: field), plain: false)
      } catch {
        cursor.position = open
        throw cursor.failure(details: "\(cursor.unexpectedCharacter) expecting \(afterName)")
      }
    }
    cursor.position = start
    let field = try cursor.field()
    return try options(&cursor, OrderTerm(relation: nil, field: field), plain: field.path.isEmpty)
  }

  /// `.asc`/`.desc`, `.nullsfirst`/`.nullslast`, then `,` or the end.
  private static func options(
    _ cursor: inout ParseCursor, _ term: OrderTerm, plain: Bool
  ) throws(RESTError) -> OrderTerm {
    var term = term
    if cursor.consume(".asc") {
      term.descending = false
    } else if cursor.consume(".desc") {
      term.descending = true
    }
    if cursor.consume(".nullsfirst") {
      term.nullsFirst = true
    } else if cursor.consume(".nullslast") {
      term.nullsFirst = false
    }
    cursor.skipSpace()
    if cursor.isAtEnd || cursor.current == "," { return term }
    if term.nullsFirst != nil {
      throw cursor.failure(details: "\(cursor.unexpectedCharacter) expecting \",\" or end of input")
    }
    if cursor.current == "." {
      cursor.position += 1
      let words =
        term.descending == nil
        ? ["asc", "desc", "nullsfirst", "nullslast"] : ["nullsfirst", "nullslast"]
      let expecting = words.map { "\"\($0)\"" }
      throw cursor.failure(
        details: "\(mismatch(cursor, words[0])) expecting "
          + expecting.dropLast().joined(separator: ", ") + " or " + (expecting.last ?? ""))
    }
    guard plain || term.descending != nil else {
      throw cursor.failure(expecting: "\",\" or end of input")
    }
    let expected = term.descending != nil ? "delimiter (.), \",\" or end of input" : afterName
    throw cursor.failure(details: "\(cursor.unexpectedCharacter) expecting \(expected)")
  }

  /// Parsec's `string word` failing at the cursor: the first character that differs.
  private static func mismatch(_ cursor: ParseCursor, _ word: String) -> String {
    var at = cursor
    for byte in word.utf8 {
      guard at.currentByte == byte else { return at.unexpectedDescription }
      at.position += 1
    }
    return at.unexpectedDescription
  }
}
