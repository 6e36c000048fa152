/// One item of a select list (also of `returning`).
///
/// Fields and embeds are boxed (`indirect`): an item is a word, so a list of them grows, and a
/// pass over it reads each item, without copying each field's names and paths.
public enum SelectItem: Sendable, Equatable {
  /// `*`
  case star(range: SourceRange)
  /// `[alias:]column[->json path][::type][.aggregate()][::type]`
  indirect case field(SelectField)
  /// `[alias:][...]relation[!hint...](items)`
  indirect case embed(SelectEmbed)

  public var range: SourceRange {
    switch self {
    case .star(let range): range
    case .field(let field): field.range
    case .embed(let embed): embed.range
    }
  }
}

/// A column in a select list: `nick:name`, `age::text`, `data->>blood`, `amount.sum()`,
/// `amount::int.sum()::text`.
public struct SelectField: Sendable, Equatable {
  public var alias: Name?
  public var column: ColumnPath
  /// `col.sum()` and friends; the bare `count()` is a field with an empty column name and
  /// aggregate `count`.
  public var aggregate: Name?
  /// With an aggregate, the cast of the column before it is aggregated (`amount::int.sum()`).
  public var inputCast: Name?
  /// The last cast: of the column, or of the aggregate's result (`amount.sum()::text`).
  public var cast: Name?
  public var range: SourceRange
}

/// An embedded resource: `owner:user_info(id, name)`, `user_info!inner(name)`, `...rel(a)`.
public struct SelectEmbed: Sendable, Equatable {
  public var alias: Name?
  public var relation: Name
  /// `!inner`, `!left`, `!fk_name`, in the order written.
  public var hints: [Name] = []
  public var items: [SelectItem]
  /// `...rel(cols)` spreads the embedded columns into the parent row.
  public var spread: Bool = false
  public var range: SourceRange
}

/// A column reference: `[embed.]*column[->key|->>key]*`.
public struct ColumnPath: Sendable, Equatable {
  /// The embedded resources before the column (`messages` in `messages.public`).
  public var embedPath: [Name] = []
  public var column: Name
  public var json: [JSONPathStep] = []
  public var range: SourceRange
}

/// One `->key` or `->>key` step of a JSON path.
public struct JSONPathStep: Sendable, Equatable {
  /// `->>` (as text) rather than `->` (as JSON).
  public var asText: Bool
  /// The key or array index as written (`blood`, `0`, `-1`).
  public var key: String
  /// The key was written in quotes (a key that is not a plain name).
  public var quoted: Bool = false
}
