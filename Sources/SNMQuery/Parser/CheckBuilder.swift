/// The builder of the statements `snm check` checks and then lets go: the syntax tree with only
/// what the checks read (``Checker``'s rules, ``SchemaCheck``'s names), so that checking a
/// statement makes less of it. What it leaves out of a query's, `rpc`'s or `let`'s values:
/// - the text of a string with no escape and no `$` (the checker reads a string's kind and its
///   `${name}` parts, and such a string has none): an empty constant in its place;
/// - the text of a bare UUID, date or timestamp (only their kinds are read);
/// - an object's members whose values use no variable (the checker reads an object's kind, and
///   its members only for their variables): the parser compares their keys all the same
///   (`ObjectKey`), so a duplicate key is the same error; a member whose value is a constant of
///   one token is not even handed over (``keepsConstantMembers``: no value made and destroyed).
/// Numbers keep their text (`limit` and `offset` must be whole numbers), and every name, array,
/// list, `where` tree and select list is as ``ASTBuilder`` makes it, in storage it keeps from the
/// statement before (``spareNodes``). Never for statements that run, explain or complete: those
/// take the whole tree.
struct CheckBuilder: TreeBuilder {
  /// An object's members being read: those whose values use a variable.
  typealias Members = [ObjectMember]

  /// The storage of the last select list and `where` tree handed over, kept (a second reference
  /// to each array) and taken again, emptied, for the next statement's: by then `snm check` has
  /// let go of the statement before, so the storage is the builder's alone and is emptied in
  /// place, where each new list and tree allocated its own and the statement's end freed it (a
  /// malloc and a free, and the object's set-up and release, each). Were a statement still
  /// held, emptying its storage would make new storage (copy-on-write), as a new one did.
  private var spareNodes: [SelectNode] = []
  private var sparePredicates: [PredicateNode] = []
  private var spareJoins: [JoinNode] = []

  /// The storage of `spare`, taken and emptied, with room for `room` at least.
  private static func reuse<Element>(_ spare: inout [Element], room: Int) -> [Element] {
    var elements: [Element] = []
    swap(&elements, &spare)
    // Emptied from its end: `removeAll(keepingCapacity:)` took the generic replace path (a
    // call of some 40 instructions, and as many again to destroy what it held).
    while !elements.isEmpty { elements.removeLast() }
    if elements.capacity < room { elements.reserveCapacity(room) }
    return elements
  }

  mutating func selection() -> [SelectNode] { Self.reuse(&spareNodes, room: 4) }

  mutating func finish(_ items: consuming [SelectNode]) -> SelectList {
    let nodes = items
    spareNodes = nodes
    return SelectList(nodes: nodes, startIndex: 0, endIndex: nodes.count)
  }

  mutating func tree() -> ConditionBuilder {
    ConditionBuilder(
      predicates: Self.reuse(&sparePredicates, room: 3), joins: Self.reuse(&spareJoins, room: 0))
  }

  mutating func filter(_ tree: consuming ConditionBuilder, root: Int) -> Condition {
    sparePredicates = tree.predicates
    spareJoins = tree.joins
    return tree.condition(root)
  }

  mutating func string(_ token: Token, decode: () throws(ParseFailure) -> StringLiteral)
    throws(ParseFailure) -> ValueNode
  {
    // No escape and no `$`: a constant, whose text nothing reads here.
    if !token.flags.contains(.hasEscapes) && !token.flags.contains(.hasDollar) {
      return ValueNode(.string(StringLiteral("")), range: token.range)
    }
    return ValueNode(.string(try decode()), range: token.range)
  }

  @inline(__always) func uuid(_ token: Token, text: @autoclosure () -> String) -> ValueNode {
    ValueNode(.uuid(""), range: token.range)
  }

  @inline(__always) func date(_ token: Token, text: @autoclosure () -> String) -> ValueNode {
    ValueNode(.date(""), range: token.range)
  }

  @inline(__always) func timestamp(_ token: Token, text: @autoclosure () -> String) -> ValueNode {
    ValueNode(.timestamp(""), range: token.range)
  }

  @inline(__always) func variable(_ token: Token, reference: @autoclosure () -> VariableRef)
    -> ValueNode
  {
    ValueNode(.variable(reference()), range: token.range)
  }

  @inline(__always) func members(room: Int) -> Members { [] }

  /// A constant member's value uses no variable: `append(key:keyRange:value:to:)` would drop it.
  static var keepsConstantMembers: Bool { false }

  /// Keeps the member when its value uses a variable (a member's value is read for nothing
  /// else), with its key's text.
  @inline(__always) func append(
    key: @autoclosure () -> String, keyRange: SourceRange, value: consuming ValueNode,
    to members: inout Members
  ) {
    if Self.usesVariables(value) {
      members.append(ObjectMember(key: key(), keyRange: keyRange, value: value))
    }
  }

  /// Whether `value` fills in a variable: a `$name`, a string with parts, or such a value inside
  /// (an object made here holds only its members that do).
  static func usesVariables(_ value: ValueNode) -> Bool {
    switch value.value {
    case .variable: true
    case .string(let literal): literal.constantText == nil
    case .array(let elements), .list(let elements): elements.contains { usesVariables($0) }
    case .object(let members): !members.isEmpty
    default: false
    }
  }

  @inline(__always) func object(_ members: consuming Members, range: SourceRange) -> ValueNode {
    ValueNode(.object(members), range: range)
  }
}

/// A parser that hands out statements one at a time for checking only (``CheckBuilder``): what
/// `snm check` reads a file with, and the files its `run`s name. Its statements are for
/// ``Checker`` and ``SchemaCheck``; to run a script, parse it with ``Parser``.
///
/// ```swift
/// var parser = CheckingParser(source)
/// while let statement = parser.nextStatement() { checker.check(statement) }
/// ```
public struct CheckingParser {
  private var parser: Parser
  private var builder = CheckBuilder()

  /// From `offset` when given, the end of a statement (``Parser/init(_:from:)``).
  public init(_ source: Source, from offset: Int = 0) {
    parser = Parser(source, from: offset)
  }

  /// The next statement without errors, or nil at the end (``Parser/nextStatement()``).
  public mutating func nextStatement() -> Statement? {
    parser.nextStatement(into: &builder)
  }

  /// The parse errors found so far.
  public var parseDiagnostics: [Diagnostic] { parser.parseDiagnostics }
}
