/// One item of `select=`: a column (with alias, JSON path, cast) or an embedded resource.
enum SelectItem: Sendable, Equatable {
  case field(SelectField)
  case embed(EmbedSelect)
}

/// A column in `select=`: `alias:col->path::cast`, or `*`.
struct SelectField: Sendable, Equatable {
  var field: FieldPath
  var alias: String?
  var cast: String?
  /// `col.sum()` and friends (`sum`, `avg`, `min`, `max`, `count`); `count()` alone counts rows.
  /// Refused (PGRST123) unless the database enables them (`pgrst.db_aggregates_enabled`); off on
  /// Supabase by default.
  var aggregate: String?
  /// The cast after the aggregate (`amount.sum()::text`); `cast` is the one on its input.
  var aggregateCast: String?
  /// The level's whole row under `alias`: a `count()` in a to-one spread, whose count the parent
  /// takes (PostgREST's `cfFullRow`), so it counts the parent's rows with a match.
  var isRow = false

  var isStar: Bool { field.name == "*" && field.path.isEmpty && !isRow }
}

/// How an embed joins its parent: `!inner` drops parent rows without a match.
enum JoinType: Sendable, Equatable {
  case inner, left
}

/// An embedded resource: `alias:rel!hint!inner(children)`, or spread `...rel(children)`.
struct EmbedSelect: Sendable, Equatable {
  var name: String
  var alias: String?
  var hint: String?
  var joinType: JoinType?
  var isSpread: Bool = false
  var children: [SelectItem]

  /// The key filters, orders and limits use for this embed: the alias, else the name.
  var key: String { alias ?? name }
}
