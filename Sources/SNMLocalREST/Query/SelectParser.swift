/// Parses `select=` into a forest of `SelectItem`s (PostgREST's `pFieldForest`).
///
///     try SelectParser.parse("id,nick:name,age::text,owner:user_info!inner(id,name)")
///
/// Grammar: items separated by `,` (spaces around them skipped); an item is `*`,
/// `[alias:]field[->path][::cast]`, `[alias:]name[!hint][!inner|!left](items)` or
/// `...name[!hint](items)`. Throws PGRST100 with PostgREST's message shape.
enum SelectParser {
  static func parse(_ text: String) throws(RESTError) -> [SelectItem] {
    var cursor = ParseCursor(text, what: "select parameter")
    let items = try forest(&cursor, nested: false)
    if !cursor.isAtEndButClosingParentheses {
      throw cursor.failure(expecting: "\",\" or end of input")
    }
    return items
  }

  /// Items up to the end (top level) or the closing `)` (nested); `rel()` may be empty.
  static func forest(_ cursor: inout ParseCursor, nested: Bool) throws(RESTError) -> [SelectItem] {
    var items: [SelectItem] = []
    cursor.skipSpace()
    if nested && cursor.current == ")" { return items }
    repeat {
      items.append(try item(&cursor))
      cursor.skipSpace()
    } while cursor.consume(",")
    return items
  }

  private static func item(_ cursor: inout ParseCursor) throws(RESTError) -> SelectItem {
    cursor.skipSpace()
    if cursor.looksAt("...") {
      cursor.position += 3
      let name = try cursor.fieldName()
      var embed = try embedTail(&cursor, name: name, alias: nil)
      embed.isSpread = true
      return .embed(embed)
    }
    if cursor.current == "*" {
      cursor.position += 1
      cursor.skipSpace()
      try expectItemEnd(&cursor, afterStar)
      return .field(SelectField(field: FieldPath(name: "*")))
    }
    var alias: String? = nil
    var name = try cursor.fieldName()
    if cursor.current == ":" && cursor.peek(1) != ":" {
      cursor.position += 1
      alias = name
      cursor.skipSpace()
      if cursor.current == "*" {
        throw cursor.failure(expecting: "field name (* or [a..z0..9_$])")
      }
      name = try cursor.fieldName()
    }
    // `[alias:]count()[::cast]` or `[alias:]field[->path][::cast][.agg()[::cast]]` (pFieldSelect).
    var aggregate: String? = nil
    var field = FieldPath(name: name)
    var cast: String? = nil
    var aggregateCast: String? = nil
    if name == "count", cursor.looksAt("()") {
      cursor.position += 2
      aggregate = "count"
      field = FieldPath(name: "*")
      if cursor.consume("::") { aggregateCast = try cursor.identifier() }
    } else if cursor.current == "(" || (cursor.current == "!" && opensEmbed(cursor)) {
      return .embed(try embedTail(&cursor, name: name, alias: alias))
    } else if cursor.current == "!" {
      // `name!hint` without `(`: PostgREST reads a field and stops at the `!`.
      try expectItemEnd(&cursor, afterName)
    } else {
      field.path = try cursor.jsonPath()
      cursor.skipSpace()
      if cursor.consume("::") { cast = try cursor.identifier() }
      if cursor.current == ".", let function = aggregateName(&cursor) {
        aggregate = function
        if cursor.consume("::") { aggregateCast = try cursor.identifier() }
      }
    }
    let plain = field.path.isEmpty && cast == nil && aggregate == nil
    cursor.skipSpace()
    try expectItemEnd(&cursor, plain ? afterName : nil)
    return .field(
      SelectField(
        field: field, alias: alias, cast: cast, aggregate: aggregate, aggregateCast: aggregateCast)
    )
  }

  /// `.sum()` `.avg()` `.min()` `.max()` `.count()` after a field.
  private static func aggregateName(_ cursor: inout ParseCursor) -> String? {
    for function in ["sum", "avg", "min", "max", "count"] where cursor.looksAt(".\(function)()") {
      cursor.position += function.unicodeScalars.count + 3
      return function
    }
    return nil
  }

  /// Whether the `!` at the cursor starts embed parameters followed by `(` (before any `,` or
  /// `)`), rather than a stray character after a field.
  private static func opensEmbed(_ cursor: ParseCursor) -> Bool {
    var index = cursor.position
    while index < cursor.bytes.count {
      switch cursor.bytes[index] {
      case UInt8(ascii: "("): return true
      case UInt8(ascii: ","), UInt8(ascii: ")"): return false
      default: index += 1
      }
    }
    return false
  }

  /// `!hint`, `!inner`, `!left` (at most two, any order), then `(children)`.
  private static func embedTail(
    _ cursor: inout ParseCursor, name: String, alias: String?
  ) throws(RESTError) -> EmbedSelect {
    var hint: String? = nil
    var joinType: JoinType? = nil
    var parameters = 0
    while cursor.current == "!" && parameters < 2 {
      cursor.position += 1
      parameters += 1
      if joinType == nil, let type = joinKeyword(&cursor) {
        joinType = type
      } else if hint == nil {
        hint = try cursor.fieldName()
      } else {
        throw cursor.failure(expecting: "\"inner\" or \"left\"")
      }
    }
    guard cursor.consume("(") else {
      throw cursor.failure(expecting: "\"(\"")
    }
    try cursor.enterNesting()
    let children = try forest(&cursor, nested: true)
    cursor.depth -= 1
    guard cursor.consume(")") else {
      throw cursor.failure(expecting: "\",\" or \")\"")
    }
    cursor.skipSpace()
    try expectItemEnd(&cursor)
    return EmbedSelect(name: name, alias: alias, hint: hint, joinType: joinType, children: children)
  }

  private static func joinKeyword(_ cursor: inout ParseCursor) -> JoinType? {
    for (word, type) in [("inner", JoinType.inner), ("left", .left)] where cursor.looksAt(word) {
      let after = cursor.peek(word.unicodeScalars.count)
      if after == nil || after == "!" || after == "(" {
        cursor.position += word.unicodeScalars.count
        return type
      }
    }
    return nil
  }

  /// What Parsec expects after a plain field name (`pFieldSelect`: the name's letters, a path,
  /// a cast, an aggregate, then its end) and after `*`.
  static let afterName =
    "letter, digit, \"-\", \"->>\", \"->\", \"::\", \".\", \")\", \",\" or end of input"
  static let afterStar = "\")\", \",\" or end of input"

  /// An item ends at `,`, `)` or the end of input; `expecting` is Parsec's list where it is
  /// known (its `unexpected` then shows a character, as `eof` does).
  private static func expectItemEnd(
    _ cursor: inout ParseCursor, _ expecting: String? = nil
  ) throws(RESTError) {
    guard cursor.isAtEnd || cursor.current == "," || cursor.current == ")" else {
      guard let expecting else {
        throw cursor.failure(expecting: "\"->\", \"::\", \",\", \")\" or end of input")
      }
      throw cursor.failure(details: "\(cursor.unexpectedCharacter) expecting \(expecting)")
    }
  }
}
