/// The semantic pass: what parses but cannot be sent as written, and variables used before `let`.
///
/// ```swift
/// var script = Parser.parse(source)
/// Checker.check(&script, variables: ["dog"])   // names bound by --var or earlier lines
/// if script.hasErrors { ... }                     // nothing is sent
/// ```
/// Rules: `eq null` is refused (write `is null`); `update`/`delete` need `where` (or `where all`);
/// bodies are objects or arrays as each verb needs; operands fit their operators; every `$name` is
/// bound by then (`$env` and `$session` always are). Statements are checked in order, so a `let`
/// binds its name for the statements after it.
public struct Checker {
  /// Variables bound before the script starts and by the `let`s checked so far; always includes
  /// `env` and `session`.
  public var defined: Set<String> { known.union(bound) }
  /// The names bound before, kept as given: checking never copies them, so a session piped a
  /// statement at a time checks each one in the time of its own size.
  private let known: Set<String>
  /// The built-ins, the names given as `bound`, and those the `let`s checked so far bind.
  public private(set) var bound: NameSet
  public private(set) var diagnostics: [Diagnostic] = []
  /// Whether the statement checked last sends a request (what `expect ... within` sends again).
  var previousSendsRequest = false
  /// The statement being checked, for messages about it as a whole.
  var statementRange = SourceRange.point(0)
  /// The environment `$env.NAME` reads when the script runs: a name it does not hold is an error
  /// before anything is sent, unless an `expect $env.NAME exists` guards it. Nil (`snm check`,
  /// which runs nothing): not checked.
  public var environment: [String: String]?
  /// The names an `expect $env.NAME exists` checked so far guards.
  public var guardedEnvironment: Set<String> = []
  /// Set when a statement checked writes a file (`> 'file'`, `\o FILE`, `set output 'FILE'`,
  /// `storage download BUCKET/PATH to FILE`),
  /// for whoever notes what a script writes (`snm check`'s ``ScriptCheck``) to read and clear:
  /// the checker reads those clauses anyway, so no one looks at each statement again for them.
  public var writesFile = false

  /// The built-in variables.
  public static let builtins: Set<String> = ["env", "session", "last"]

  /// Whether `name` is a built-in variable: `builtins.contains(name)`, by its length and then
  /// its text, without hashing it (every `let` asks).
  static func isBuiltin(_ name: String) -> Bool {
    switch name.utf8.count {
    case 3: name == "env"
    case 4: name == "last"
    case 7: name == "session"
    default: false
    }
  }

  /// A checker with `variables` (and `bound`: names bound since, a small set) defined.
  public init(variables: Set<String> = [], bound: NameSet = NameSet()) {
    known = variables
    var names = bound
    for name in Checker.builtins { names.insert(name) }
    self.bound = names
  }

  /// Whether `$name` is bound by now.
  func isDefined(_ name: String) -> Bool {
    bound.contains(name) || known.contains(name)
  }

  /// Checks every statement of `script`, appending diagnostics and dropping statements with errors.
  public static func check(_ script: inout ParsedScript, variables: Set<String> = []) {
    var checker = Checker(variables: variables)
    var failed: [Int] = []
    for (index, statement) in script.statements.enumerated() {
      let before = checker.diagnostics.count
      checker.check(statement)
      if checker.diagnostics.count != before { failed.append(index) }
    }
    guard !checker.diagnostics.isEmpty else { return }
    for index in failed.reversed() { script.statements.remove(at: index) }
    script.diagnostics += checker.diagnostics
    script.diagnostics.sort { $0.range.start < $1.range.start }
  }

  /// Checks one statement (and binds its `let` name).
  public mutating func check(_ statement: Statement) {
    statementRange = statement.range
    // Whether it sends a request (`sendsRequest`), set in the one switch on its kind.
    var sends = false
    switch statement.kind {
    case .query(let query):
      check(query)
      sends = true
    case .rpc(let rpc):
      check(rpc)
      sends = true
    case .storage(let storage): check(storage)
    case .functions(let functions):
      check(functions)
      sends = true
    case .session(let session): check(session)
    case .auth(let auth): check(auth)
    case .asService(let inner): checkAsService(inner)
    case .realtime(let realtime):
      check(realtime)
      if case .expectEvent = realtime { bound.insert("event") }
    case .let(let binding):
      if Checker.isBuiltin(binding.name.text) {
        report(
          .builtinVariable(binding.name.text), at: binding.name.range,
          help: "pick another name, as in 'let my_\(binding.name.text) = ...'")
      }
      switch binding.value {
      case .statement(let inner):
        check(inner)
        sends = Checker.sendsRequest(inner)
      case .value(let value): checkVariables(in: value)
      }
      bound.insert(binding.name.text)
    case .expect(let expect):
      check(expect)
      sends = previousSendsRequest
    case .echo(let echo): checkVariables(in: echo.value)
    case .run: break
    case .deferred(let deferred): check(deferred.statement)
    case .shell(.explain(let inner, _)): check(inner)
    case .shell(.output(let file?)):
      checkVariables(in: ValueNode(.string(file.literal), range: file.range))
      writesFile = true
    case .shell: break
    }
    previousSendsRequest = sends
  }

  mutating func report(_ message: DiagnosticMessage, at range: SourceRange, help: String? = nil) {
    diagnostics.append(Diagnostic(message, at: range, help: help))
  }

  mutating func check(_ session: SessionStatement) {
    switch session {
    case .login(let email, let password), .signup(let email, let password, nil):
      checkVariables(in: email)
      if let password { checkVariables(in: password) }
    case .signup(let email, let password, let data?):
      checkVariables(in: email)
      if let password { checkVariables(in: password) }
      checkVariables(in: data)
    default: break
    }
  }

  mutating func check(_ expect: ExpectStatement) {
    switch expect {
    case .rows(_, let value):
      checkCount(value, clause: "expect rows")
    case .status(_, let value):
      checkCount(value, clause: "expect status")
    case .error(let code):
      if let code { checkVariables(in: code) }
    case .compare(let left, _, let right):
      checkVariables(in: left)
      checkVariables(in: right)
    default:
      checkMore(expect)
    }
  }

  /// A whole number of at least zero, or a variable (checked when it is filled in).
  mutating func checkCount(_ value: ValueNode, clause: String) {
    switch value.value {
    case .number(let text) where Int(text).map({ $0 >= 0 }) == true: break
    case .variable: checkVariables(in: value)
    default:
      report(.notACount(clause, found: describe(value.value)), at: value.range)
    }
  }

  func describe(_ value: Value) -> String {
    switch value {
    case .number(let text): "'\(text)'"
    default: value.kindDescription
    }
  }
}
