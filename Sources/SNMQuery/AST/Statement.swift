/// One statement of the language, with the source range it was parsed from.
///
/// ```swift
/// let script = Parser.parse(Source(text: "from user_info select *"))
/// if case .query(let query) = script.statements[0].kind { print(query.table.name.text) }
/// ```
public struct Statement: Sendable, Equatable {
  public var kind: Kind
  public var range: SourceRange

  /// Every statement form of the spec: queries (§2), session (§3), scripts (§4), shell (§5).
  /// Every payload that is not a class is boxed (`indirect`): a statement is two words, so
  /// handing one on copies no more than that (what `snm check` does for each statement).
  public enum Kind: Sendable, Equatable {
    /// `from <table> <action> ...`
    case query(QueryStatement)
    /// `rpc [get] <function> [{args}] ...`
    case rpc(RPCStatement)
    /// `storage buckets|ls|upload|download|...`: the Storage API
    indirect case storage(StorageStatement)
    /// `invoke <function> ...`, `request <method> '<path>' ...`: Edge Functions, raw HTTP
    indirect case functions(FunctionsStatement)
    /// `login`, `signup`, `session check|show`, `logout`
    indirect case session(SessionStatement)
    /// `let name = <statement or value>`
    indirect case `let`(LetStatement)
    /// `expect rows|status|error|<value> ...`
    indirect case expect(ExpectStatement)
    /// `echo <value>`
    indirect case echo(EchoStatement)
    /// `run <file>` (also `\i <file>`)
    indirect case run(RunStatement)
    /// `defer <statement>`: runs when the file ends, whatever happened (AST/DeferStatement.swift)
    indirect case deferred(DeferStatement)
    /// `help`, `tables`, `describe`, `explain`, `set`, `exit`, and the psql aliases
    indirect case shell(ShellStatement)
    /// `user ...`, `password reset`, `verify otp`, `resend`, `mfa ...`, `admin ...`, `inbox`
    indirect case auth(AuthStatement)
    /// `as service <statement>`: a query, `rpc` or Storage statement with the service key
    indirect case asService(Statement)
    /// `listen`, `unlisten`, `broadcast`, `track`, `untrack`, `expect [no] event`:
    /// Realtime (AST/RealtimeStatement.swift)
    indirect case realtime(RealtimeStatement)
  }

  /// Whether the statement sends a request (a query, an `rpc` or a Storage statement).
  public var isRequest: Bool {
    switch kind {
    case .query, .rpc, .functions: true
    case .storage(let storage): storage.sendsRequest
    case .auth, .asService: true
    default: false
    }
  }
}

/// A name as written: its text (quotes removed, escapes decoded) and whether it was quoted.
public struct Name: Sendable, Equatable {
  public var text: String
  public var quoted: Bool
  public var range: SourceRange

  public init(_ text: String, quoted: Bool = false, range: SourceRange) {
    self.text = text
    self.quoted = quoted
    self.range = range
  }
}

/// `name` or `schema.name`: a table, view or function.
///
/// Made in this module by its memberwise initializer, `TableName(schema:name:)` (internal): one
/// written out here built the value in memory and copied it out, a retain and a release of its
/// names at every table name read (Swift 6.3, -O; `init(_:in:)` is the other modules').
public struct TableName: Sendable, Equatable {
  public var schema: Name?
  public var name: Name

  public var range: SourceRange { schema.map { $0.range.union(name.range) } ?? name.range }
}

extension TableName {
  /// `name`, in `schema` when one is given (other modules' initializer).
  public init(_ name: Name, in schema: Name? = nil) {
    self.init(schema: schema, name: name)
  }
}
