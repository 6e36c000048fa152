/// One item of a `select=` list: `*`, a column (alias, JSON path, cast) or an embedded resource.
///
/// ```swift
/// .select(.all, .embed("messages", .all))                    // select=*,messages(*)
/// .select("id", .column("name", as: "nick"), .column("age", cast: "text"))
///                                                            // select=id,nick:name,age::text
/// .select("name", .embed("user_info", as: "owner", "id", "name"))
///                                                            // select=name,owner:user_info(id,name)
/// .select("name", .embed("user_info", join: .inner, "name"))  // select=name,user_info!inner(name)
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
  /// A column (with a JSON path if `column` has one), optionally renamed and cast.
  case column(SupabaseColumn, alias: String?, cast: String?)
  /// An embedded resource: `alias:relation!hint!join(items)`, or `...relation(items)` when spread.
  case embed(
    relation: String, alias: String?, hint: String?, join: Join?, spread: Bool,
    items: [SupabaseSelectItem])
  /// Text passed through as written (aggregates such as `count()`, anything else PostgREST adds).
  case raw(String)

  /// `"*"` is ``all``; anything else a column read like ``SupabaseColumn/init(parsing:)``.
  public init(stringLiteral value: String) {
    self = value == "*" ? .all : .column(SupabaseColumn(parsing: value), alias: nil, cast: nil)
  }

  /// A column, optionally renamed (`nick:name`) and cast (`age::text`).
  public static func column(_ column: SupabaseColumn, as alias: String? = nil, cast: String? = nil)
    -> SupabaseSelectItem
  {
    .column(column, alias: alias, cast: cast)
  }

  /// An embedded resource with its own select list.
  public static func embed(
    _ relation: String, as alias: String? = nil, hint: String? = nil, join: Join? = nil,
    spread: Bool = false, _ items: SupabaseSelectItem...
  ) -> SupabaseSelectItem {
    .embed(relation: relation, alias: alias, hint: hint, join: join, spread: spread, items: items)
  }

  /// An embedded resource with its own select list (array form).
  public static func embed(
    _ relation: String, as alias: String? = nil, hint: String? = nil, join: Join? = nil,
    spread: Bool = false, items: [SupabaseSelectItem]
  ) -> SupabaseSelectItem {
    .embed(relation: relation, alias: alias, hint: hint, join: join, spread: spread, items: items)
  }

  /// The item on the wire (names quoted where needed).
  public var wire: String {
    switch self {
    case .all: return "*"
    case .column(let column, let alias, let cast):
      let prefix = alias.map { PostgresLiteral.name($0) + ":" } ?? ""
      return prefix + column.wireKey + (cast.map { "::" + $0 } ?? "")
    case .embed(let relation, let alias, let hint, let join, let spread, let items):
      var text = spread ? "..." : ""
      if let alias { text += PostgresLiteral.name(alias) + ":" }
      text += PostgresLiteral.name(relation)
      if let hint { text += "!" + PostgresLiteral.name(hint) }
      if let join { text += "!" + join.rawValue }
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
