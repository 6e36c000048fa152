/// `from <table> <action> [where ...] [modifiers]`.
///
/// A class, not a struct: statements are passed through the checker and the compiler many times,
/// and sharing one immutable node is cheaper than copying its many fields each time.
public final class QueryStatement: Sendable, Equatable {
  public let table: TableName
  public let action: QueryAction
  /// The `where` clause, if written.
  public let filter: WhereClause?
  public let modifiers: Modifiers
  /// `insert file 'dogs.json'` / `insert csv 'dogs.csv'`: the body is read from a file when the
  /// statement runs (`action` then holds an empty object in its place).
  public let bodyFile: BodyFile?

  public init(
    table: TableName, action: QueryAction, filter: WhereClause? = nil,
    modifiers: Modifiers = Modifiers(), bodyFile: BodyFile? = nil
  ) {
    self.table = table
    self.action = action
    self.filter = filter
    self.modifiers = modifiers
    self.bodyFile = bodyFile
  }

  public static func == (left: QueryStatement, right: QueryStatement) -> Bool {
    left === right
      || (left.table == right.table && left.action == right.action && left.filter == right.filter
        && left.modifiers == right.modifiers && left.bodyFile == right.bodyFile)
  }
}

/// What a query does to its table.
public enum QueryAction: Sendable, Equatable {
  /// `select <items>` (GET)
  case select(SelectList, range: SourceRange)
  /// `insert <object or array>` (POST)
  case insert(body: ValueNode, range: SourceRange)
  /// `upsert <body> [on conflict cols] [ignore duplicates]` (POST + `Prefer: resolution=`)
  case upsert(UpsertAction)
  /// `update <object>` (PATCH)
  case update(body: ValueNode, range: SourceRange)
  /// `delete` (DELETE)
  case delete(range: SourceRange)
  /// `put <object>` (PUT): the one row the filters name by its primary key, inserted or replaced
  case put(body: ValueNode, range: SourceRange)

  /// The keyword that names the action (`select`, `insert`, ...).
  public var verb: String {
    switch self {
    case .select: "select"
    case .insert: "insert"
    case .upsert: "upsert"
    case .update: "update"
    case .delete: "delete"
    case .put: "put"
    }
  }

  /// Where the action's keyword (and body) was written.
  public var range: SourceRange {
    switch self {
    case .select(_, let range), .insert(_, let range), .update(_, let range), .delete(let range),
      .put(_, let range):
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
  public var onConflict: [Name] = []
  public var ignoreDuplicates: Bool = false
  public var range: SourceRange
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
public final class RPCStatement: Sendable, Equatable {
  public let function: TableName
  /// `rpc get`: the arguments go in the query string and the method is GET.
  public let get: Bool
  public let arguments: ValueNode?
  public let filter: Condition?
  public let modifiers: Modifiers

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

  public static func == (left: RPCStatement, right: RPCStatement) -> Bool {
    left === right
      || (left.function == right.function && left.get == right.get
        && left.arguments == right.arguments && left.filter == right.filter
        && left.modifiers == right.modifiers)
  }
}
