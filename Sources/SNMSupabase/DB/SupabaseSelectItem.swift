/// One item of a `select=` list: `*`, a column (alias, JSON path, cast) or an embedded resource.
///
/// ```swift
/// .select(.all, .embed("messages", .all))                    // select=*,messages(*)
/// .select("id", .column("name", as: "nick"), .column("age", cast: "text"))
///                                                            // select=id,nick:name,age::text
/// .select("name", .embed("user_info", as: "owner", "id", "name"))
///                                                            // select=name,owner:user_info(id,name)
/// .select("name", .embed("user_info", join: .inner, "name"))  // select=name,user_info!inner(name)
/// .select("owner_id", .column("age", aggregate: "avg"), .count()) // select=owner_id,age.avg(),count()
/// .select(.column("amount", aggregate: "sum", inputCast: "int", cast: "text"))
///                                                            // select=amount::int.sum()::text
/// ```
public indirect enum SupabaseSelectItem: Sendable, Hashable, ExpressibleByStringLiteral {
  /// How an embedded resource joins its parent.
  public enum Join: String, Sendable, Hashable {
    /// Only parent rows with a matching embedded row (`!inner`).
    case inner
    /// Every parent row (`!left`, the default).
    case left
  }

  /// `*`.
  case all
  /// A column (with a JSON path if `column` has one), optionally renamed, aggregated
  /// (`age.sum()`; a column with an empty name and `count` is the bare `count()`) and cast:
  /// `cast` is the last one (of the column, or of the aggregate's result), `inputCast` the
  /// column's before it is aggregated (`amount::int.sum()`).
  case column(
    SupabaseColumn, alias: String?, aggregate: String?, inputCast: String?, cast: String?)
  /// An embedded resource: `alias:relation!hint!inner(items)`, or `...relation(items)` when spread.
  case embed(
    relation: String, alias: String?, hints: [String], spread: Bool, items: [SupabaseSelectItem])
  /// Text passed through as written.
  case raw(String)

  /// `"*"` is ``all``; anything else a column read like ``SupabaseColumn/init(parsing:)``.
  public init(stringLiteral value: String) {
    self =
      value == "*"
      ? .all
      : .column(
        SupabaseColumn(parsing: value), alias: nil, aggregate: nil, inputCast: nil, cast: nil)
  }

  /// A column, optionally renamed (`nick:name`), aggregated (`age.sum()`) and cast (`age::text`;
  /// with an aggregate, `inputCast` casts the column before it and `cast` the result:
  /// `amount::int.sum()::text`).
  public static func column(
    _ column: SupabaseColumn, as alias: String? = nil, aggregate: String? = nil,
    inputCast: String? = nil, cast: String? = nil
  ) -> SupabaseSelectItem {
    .column(column, alias: alias, aggregate: aggregate, inputCast: inputCast, cast: cast)
  }

  /// The bare `count()` aggregate: the number of rows (per group of the other columns).
  public static func count(as alias: String? = nil, cast: String? = nil) -> SupabaseSelectItem {
    .column(
      SupabaseColumn("", embedPath: []), alias: alias, aggregate: "count", inputCast: nil,
      cast: cast)
  }

  /// An embedded resource with its own select list; `hint` names the foreign key or column when
  /// more than one relationship fits, `join: .inner` keeps only parents with a match.
  public static func embed(
    _ relation: String, as alias: String? = nil, hint: String? = nil, join: Join? = nil,
    spread: Bool = false, _ items: SupabaseSelectItem...
  ) -> SupabaseSelectItem {
    .embed(relation, as: alias, hint: hint, join: join, spread: spread, items: items)
  }

  /// An embedded resource with its own select list (array form, for lists built at run time).
  public static func embed(
    _ relation: String, as alias: String? = nil, hint: String? = nil, join: Join? = nil,
    spread: Bool = false, items: [SupabaseSelectItem]
  ) -> SupabaseSelectItem {
    .embed(
      relation: relation, alias: alias, hints: [hint, join?.rawValue].compactMap { $0 },
      spread: spread, items: items)
  }

  /// The item on the wire (names quoted where needed).
  public var wire: String {
    switch self {
    case .all: return "*"
    case .column(let column, let alias, let aggregate, let inputCast, let cast):
      var text = alias.map { PostgresLiteral.name($0) + ":" } ?? ""
      if let aggregate, column.name.isEmpty {
        text += aggregate + "()"
      } else if let aggregate {
        text += column.wireKey + (inputCast.map { "::" + $0 } ?? "") + "." + aggregate + "()"
      } else {
        text += column.wireKey
      }
      return text + (cast.map { "::" + $0 } ?? "")
    case .embed(let relation, let alias, let hints, let spread, let items):
      var text = spread ? "..." : ""
      if let alias { text += PostgresLiteral.name(alias) + ":" }
      text += PostgresLiteral.name(relation)
      for hint in hints { text += "!" + PostgresLiteral.name(hint) }
      return text + "(" + items.map(\.wire).joined(separator: ",") + ")"
    case .raw(let text):
      return text
    }
  }
}

/// What a `select` parameter asks for: structured items, or text as the app wrote it.
public enum SupabaseSelectList: Sendable, Hashable {
  case items([SupabaseSelectItem])
  /// Whitespace outside double quotes is removed, as supabase-swift does: `"id, name"` -> `id,name`.
  case text(String)

  /// The value of `select=`.
  public var wire: String {
    switch self {
    case .items(let items): return items.map(\.wire).joined(separator: ",")
    case .text(let text):
      var result = ""
      var quoted = false
      for character in text {
        if character == "\"" { quoted.toggle() }
        if quoted || !character.isWhitespace { result.append(character) }
      }
      return result
    }
  }
}
