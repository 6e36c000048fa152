/// `from <table> <action> [where ...] [modifiers]`.
public struct QueryStatement: Sendable, Equatable {
  public var table: TableName
  public var action: QueryAction
  /// The `where` clause, if written.
  public var filter: WhereClause?
  public var modifiers: Modifiers

  public init(
    table: TableName, action: QueryAction, filter: WhereClause? = nil,
    modifiers: Modifiers = Modifiers()
  ) {
    self.table = table
    self.action = action
    self.filter = filter
    self.modifiers = modifiers
  }
}

/// What a query does to its table.
public enum QueryAction: Sendable, Equatable {
  /// `select <items>` (GET)
  case select([SelectItem], range: SourceRange)
  /// `insert <object or array>` (POST)
  case insert(body: ValueNode, range: SourceRange)
  /// `upsert <body> [on conflict cols] [ignore duplicates]` (POST + `Prefer: resolution=`)
  case upsert(UpsertAction)
  /// `update <object>` (PATCH)
  case update(body: ValueNode, range: SourceRange)
  /// `delete` (DELETE)
  case delete(range: SourceRange)

  /// The keyword that names the action (`select`, `insert`, ...).
  public var verb: String {
    switch self {
    case .select: "select"
    case .insert: "insert"
    case .upsert: "upsert"
    case .update: "update"
    case .delete: "delete"
    }
  }

  /// Where the action's keyword (and body) was written.
  public var range: SourceRange {
    switch self {
    case .select(_, let range), .insert(_, let range), .update(_, let range), .delete(let range):
      range
    case .upsert(let upsert): upsert.range
    }
  }

  /// Whether the action writes (insert, upsert, update, delete).
  public var isWrite: Bool {
    if case .select = self { return false }
    return true
  }
}

/// `upsert <body> [on conflict a, b] [ignore duplicates]`.
public struct UpsertAction: Sendable, Equatable {
  public var body: ValueNode
  public var onConflict: [Name]
  public var ignoreDuplicates: Bool
  public var range: SourceRange

  public init(
    body: ValueNode, onConflict: [Name] = [], ignoreDuplicates: Bool = false, range: SourceRange
  ) {
    self.body = body
    self.onConflict = onConflict
    self.ignoreDuplicates = ignoreDuplicates
    self.range = range
  }
}

/// `where <condition>` or `where all` (an update or delete of every row, on purpose).
public enum WhereClause: Sendable, Equatable {
  case all(range: SourceRange)
  case condition(Condition)

  public var range: SourceRange {
    switch self {
    case .all(let range): range
    case .condition(let condition): condition.range
    }
  }
}

/// `rpc [get] <function> [{args}] [where ...] [modifiers]`.
public struct RPCStatement: Sendable, Equatable {
  public var function: TableName
  /// `rpc get`: the arguments go in the query string and the method is GET.
  public var get: Bool
  public var arguments: ValueNode?
  public var filter: Condition?
  public var modifiers: Modifiers

  public init(
    function: TableName, get: Bool = false, arguments: ValueNode? = nil, filter: Condition? = nil,
    modifiers: Modifiers = Modifiers()
  ) {
    self.function = function
    self.get = get
    self.arguments = arguments
    self.filter = filter
    self.modifiers = modifiers
  }
}
