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
  /// `col.sum()` and friends; refused (PGRST123) as on Supabase, where aggregates are off.
  var aggregate: String?

  var isStar: Bool { field.name == "*" && field.path.isEmpty }
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
