/// Something the parser would accept at a point: what completion offers there.
public enum ExpectedItem: Sendable, Hashable {
  /// A keyword (lowercase).
  case keyword(String)
  /// A punctuation or operator token.
  case symbol(TokenKind)
  /// A name in a role (a table, a column of a table, ...).
  case name(NameRole)
  /// A value (a literal or a `$variable`).
  case value
}

/// What a name in a given position names.
public enum NameRole: Sendable, Hashable {
  case table
  case function
  /// A column of the table (or embedded relation) named, when known.
  case column(table: String?)
  /// An embedded relation of the table named.
  case relation(table: String?)
  /// A new variable in `let`.
  case newVariable
  /// A type in `::type`.
  case type
  /// A text-search configuration in `fts(config)`.
  case config
  /// A script file after `run` or `\i`.
  case file
  /// A Storage bucket (`storage drop bucket <here>`).
  case bucket
  /// A Storage path: a bucket, then folders and a file (`storage ls avatars/<here>`).
  case storagePath
  /// A file on this machine (`storage upload <here>`, `download ... to <here>`).
  case localFile
}

extension NameRole {
  /// The role with `table` as a column's or relation's table when it names none.
  func inTable(_ table: String?) -> NameRole {
    switch self {
    case .column(table: nil): .column(table: table)
    case .relation(table: nil): .relation(table: table)
    default: self
    }
  }
}
