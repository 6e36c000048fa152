/// What the parser makes of the parts of a statement as it reads them. The grammar is written
/// once, generic over its builder, and specialized for each: ``ASTBuilder`` makes the syntax tree
/// (``ValueNode`` and the rest) that running, explaining and completing read; a builder for
/// `snm check` can keep only what the checker's rules read, so that checking builds no tree.
///
/// ```swift
/// var builder = ASTBuilder()
/// let value = try parser.parseValue(after: "'limit'", what: "a number of rows", into: &builder)
/// ```
/// The parser hands each part over with its token (its text, or its decoded string, as a
/// closure), so a builder that needs no text makes none. Values, `where` trees and select lists, and the
/// statements made of them (queries, `rpc`, `let`); the other statements are the tree's.
protocol SyntaxBuilder {
  /// A value: a string, number, literal, variable, array, object or list.
  associatedtype Value
  /// The elements of an array or list being read.
  associatedtype Elements
  /// The members of an object being read.
  associatedtype Members

  /// A quoted string (`'text'`, `"text"`, with `${name}` parts), its token taken; `decode` makes
  /// its literal (and fails on a malformed escape or part).
  mutating func string(_ token: Token, decode: () throws(ParseFailure) -> StringLiteral)
    throws(ParseFailure) -> Value
  /// A number as written.
  mutating func number(_ token: Token, text: @autoclosure () -> String) -> Value
  /// A bare UUID.
  mutating func uuid(_ token: Token, text: @autoclosure () -> String) -> Value
  /// A bare date (`2026-11-29`).
  mutating func date(_ token: Token, text: @autoclosure () -> String) -> Value
  /// A bare timestamp (`2026-11-29T10:00:00Z`).
  mutating func timestamp(_ token: Token, text: @autoclosure () -> String) -> Value
  /// `$name.a[0]` or `${name}`.
  mutating func variable(_ token: Token, reference: @autoclosure () -> VariableRef) -> Value
  /// `true` or `false`.
  mutating func bool(_ value: Bool, range: SourceRange) -> Value
  /// `null`.
  mutating func null(range: SourceRange) -> Value

  /// No elements yet; `room` for the first few when some follow.
  mutating func elements(room: Int) -> Elements
  mutating func append(_ element: consuming Value, to elements: inout Elements)
  /// `[a, b]`.
  mutating func array(_ elements: consuming Elements, range: SourceRange) -> Value
  /// `(a, b)`.
  mutating func list(_ elements: consuming Elements, range: SourceRange) -> Value

  /// No members yet; `room` for the first few when some follow.
  mutating func members(room: Int) -> Members
  /// Appends a member: its key (not written before in this object: the parser compares the
  /// keys), whose text a builder makes only if it keeps it.
  mutating func append(
    key: @autoclosure () -> String, keyRange: SourceRange, value: consuming Value,
    to members: inout Members)
  /// `{"key": value, ...}`.
  mutating func object(_ members: consuming Members, range: SourceRange) -> Value
  /// Whether the builder keeps a member whose value is a constant of one token (a string with
  /// no escape and no `$`, a number, a UUID, a date, a timestamp, `true`, `false`, `null`):
  /// when not, the parser steps over such a value, its key compared all the same, and hands
  /// over nothing.
  static var keepsConstantMembers: Bool { get }
  /// A bare word where the language allows one (`is unknown`).
  mutating func word(_ text: String, range: SourceRange) -> Value

  /// A `where` tree being read: its nodes by index, each added after its operands.
  associatedtype Tree
  /// A whole `where` tree.
  associatedtype Filter

  /// A tree with no nodes yet.
  mutating func tree() -> Tree
  /// Adds `column [not] op [(config)] [any|all] value`; its node.
  mutating func predicate(
    column: consuming ColumnPath, negated: Bool, op: FilterOperator,
    quantifier: FilterPredicate.Quantifier?, config: consuming Name?, value: consuming Value,
    operatorRange: SourceRange, range: SourceRange, into tree: inout Tree
  ) -> Int
  /// Adds an `and`, `or` or `not` whose (first) operand is `first`; its node.
  mutating func join(
    _ kind: Condition.Kind, first: Int, range: SourceRange, into tree: inout Tree
  ) -> Int
  /// Makes `next` the operand after `previous` in their `and`/`or`.
  mutating func link(_ previous: Int, to next: Int, in tree: inout Tree)
  /// Where the node was written (`tree` read in place, never written).
  func range(of node: Int, in tree: inout Tree) -> SourceRange
  /// The tree whose root is `root`.
  mutating func filter(_ tree: consuming Tree, root: Int) -> Filter

  /// The items of a select list being read (an embed's items after it).
  associatedtype Items
  /// A whole select list (`select ...`, `returning ...`).
  associatedtype Selection

  /// A select list with no items yet.
  mutating func selection() -> Items
  /// Adds a `*` or a field, which has no items of its own; `quotedOrAggregate`: one of its
  /// names was written in quotes, or it has an aggregate (``SelectNode/quotedOrAggregate``).
  mutating func add(_ item: consuming SelectItem, quotedOrAggregate: Bool, to items: inout Items)
  /// Adds an embed, its items to follow until it is `close`d; its node. `quoted`: its alias or
  /// relation was written in quotes.
  mutating func open(_ embed: consuming SelectEmbed, quoted: Bool, in items: inout Items) -> Int
  /// Ends the embed at `node` at `end`, after its items.
  mutating func close(at node: Int, end: Int, in items: inout Items)
  /// The list of `items`.
  mutating func finish(_ items: consuming Items) -> Selection
}

/// A builder whose parts are the syntax tree's types, so that statements (``Statement``) are
/// made of them: ``ASTBuilder`` and ``CheckBuilder``, which leaves out what no check reads. What
/// the two make alike is written once, here.
protocol TreeBuilder: SyntaxBuilder
where
  Value == ValueNode, Elements == [ValueNode], Filter == Condition, Tree == ConditionBuilder,
  Selection == SelectList, Items == [SelectNode]
{}

extension TreeBuilder {
  @inline(__always) func number(_ token: Token, text: @autoclosure () -> String) -> ValueNode {
    ValueNode(.number(text()), range: token.range)
  }

  @inline(__always) func bool(_ value: Bool, range: SourceRange) -> ValueNode {
    ValueNode(.bool(value), range: range)
  }

  @inline(__always) func null(range: SourceRange) -> ValueNode {
    ValueNode(.null, range: range)
  }

  @inline(__always) func word(_ text: String, range: SourceRange) -> ValueNode {
    ValueNode(.word(text), range: range)
  }

  @inline(__always) func elements(room: Int) -> [ValueNode] {
    var elements: [ValueNode] = []
    if room > 0 { elements.reserveCapacity(room) }
    return elements
  }

  @inline(__always) func append(_ element: consuming ValueNode, to elements: inout [ValueNode]) {
    elements.append(element)
  }

  @inline(__always) func array(_ elements: consuming [ValueNode], range: SourceRange) -> ValueNode {
    ValueNode(.array(elements), range: range)
  }

  @inline(__always) func list(_ elements: consuming [ValueNode], range: SourceRange) -> ValueNode {
    ValueNode(.list(elements), range: range)
  }

  @inline(__always) func tree() -> ConditionBuilder { ConditionBuilder() }

  @inline(__always) func predicate(
    column: consuming ColumnPath, negated: Bool, op: FilterOperator,
    quantifier: FilterPredicate.Quantifier?, config: consuming Name?, value: consuming ValueNode,
    operatorRange: SourceRange, range: SourceRange, into tree: inout ConditionBuilder
  ) -> Int {
    tree.add(
      FilterPredicate(
        column: column, negated: negated, op: op, quantifier: quantifier, config: config,
        value: value, operatorRange: operatorRange, range: range))
  }

  @inline(__always) func join(
    _ kind: Condition.Kind, first: Int, range: SourceRange, into tree: inout ConditionBuilder
  ) -> Int {
    tree.add(kind, first: first, range: range)
  }

  @inline(__always) func link(_ previous: Int, to next: Int, in tree: inout ConditionBuilder) {
    tree.link(previous, to: next)
  }

  @inline(__always) func range(of node: Int, in tree: inout ConditionBuilder) -> SourceRange {
    tree.range(of: node)
  }

  @inline(__always) func filter(_ tree: consuming ConditionBuilder, root: Int) -> Condition {
    tree.condition(root)
  }

  @inline(__always) func selection() -> [SelectNode] {
    // Room for four made at once (four of 264 bytes went past malloc's small sizes; with
    // 8-byte ranges a node is 200, and the four of a select with one embed fit).
    var nodes: [SelectNode] = []
    nodes.reserveCapacity(4)
    return nodes
  }

  @inline(__always) func add(
    _ item: consuming SelectItem, quotedOrAggregate: Bool, to items: inout [SelectNode]
  ) {
    items.append(item: item, quotedOrAggregate: quotedOrAggregate)
  }

  @inline(__always) func open(
    _ embed: consuming SelectEmbed, quoted: Bool, in items: inout [SelectNode]
  ) -> Int {
    items.open(embed, quoted: quoted)
  }

  @inline(__always) func close(at node: Int, end: Int, in items: inout [SelectNode]) {
    items.close(at: node, end: end)
  }

  @inline(__always) func finish(_ items: consuming [SelectNode]) -> SelectList {
    let count = items.count
    return SelectList(nodes: items, startIndex: 0, endIndex: count)
  }
}

/// The builder of the syntax tree: values are ``ValueNode``s, as every reader of a statement
/// takes them.
struct ASTBuilder: TreeBuilder {
  typealias Members = [ObjectMember]

  static var keepsConstantMembers: Bool { true }

  @inline(__always) func string(
    _ token: Token, decode: () throws(ParseFailure) -> StringLiteral
  ) throws(ParseFailure) -> ValueNode {
    ValueNode(.string(try decode()), range: token.range)
  }

  @inline(__always) func uuid(_ token: Token, text: @autoclosure () -> String) -> ValueNode {
    ValueNode(.uuid(text()), range: token.range)
  }

  @inline(__always) func date(_ token: Token, text: @autoclosure () -> String) -> ValueNode {
    ValueNode(.date(text()), range: token.range)
  }

  @inline(__always) func timestamp(_ token: Token, text: @autoclosure () -> String) -> ValueNode {
    ValueNode(.timestamp(text()), range: token.range)
  }

  @inline(__always) func variable(_ token: Token, reference: @autoclosure () -> VariableRef)
    -> ValueNode
  {
    ValueNode(.variable(reference()), range: token.range)
  }

  @inline(__always) func members(room: Int) -> [ObjectMember] {
    var members: [ObjectMember] = []
    if room > 0 { members.reserveCapacity(room) }
    return members
  }

  @inline(__always) func append(
    key: @autoclosure () -> String, keyRange: SourceRange, value: consuming ValueNode,
    to members: inout [ObjectMember]
  ) {
    members.append(ObjectMember(key: key(), keyRange: keyRange, value: value))
  }

  @inline(__always) func object(_ members: consuming [ObjectMember], range: SourceRange)
    -> ValueNode
  {
    ValueNode(.object(members), range: range)
  }
}
