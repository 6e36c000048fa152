/// A `where` tree: predicates joined by `and`, `or`, `not` and parentheses. A statement's whole
/// tree is two arrays: its predicates, stored by value, and its `and`/`or`/`not` nodes (none when
/// the tree is one predicate), children before their parent, the operands of an `and`/`or` linked
/// in order. A `Condition` is one node of it (an index into one array or the other), read through
/// `shape`, or walked by index without copying (`kind(at:)`, `operand(of:)`, `next(after:)`,
/// `withPredicate(at:)`). Equal when the trees are (the same shapes, predicates and ranges).
public struct Condition: Sendable, Equatable {
  let predicates: [PredicateNode]
  let joins: [JoinNode]
  /// A predicate's index, or a join's as `~index` (negative).
  let index: Int

  public enum Kind: Sendable { case predicate, and, or, not }

  /// What a node is, its operands as views into the same tree (the predicate copied).
  public enum Shape: Sendable {
    case predicate(FilterPredicate)
    case and(Operands, range: SourceRange)
    case or(Operands, range: SourceRange)
    case not(Condition, range: SourceRange)
  }

  public var shape: Shape {
    if index >= 0 { return .predicate(predicates[index].predicate) }
    let join = joins[~index]
    switch join.kind {
    case .and: return .and(operands, range: join.range)
    case .or: return .or(operands, range: join.range)
    default: return .not(operand, range: join.range)
    }
  }

  /// An `and`'s or `or`'s operands.
  public var operands: Operands { Operands(first: operand) }

  /// A `not`'s operand; the first operand of an `and`/`or`.
  public var operand: Condition { node(joins[~index].first) }

  public var range: SourceRange { predicates.range(of: index, joins) }

  public var isPredicate: Bool { index >= 0 }

  func node(_ index: Int) -> Condition {
    Condition(predicates: predicates, joins: joins, index: index)
  }

  /// The operand after this one in its `and`/`or`, if any.
  var next: Condition? { next(after: index).map(node) }

  // Walking the tree by node index, this view borrowed throughout (no view made a node).

  func kind(at node: Int) -> Kind { node >= 0 ? .predicate : joins[~node].kind }

  /// A `not`'s operand; the first operand of an `and`/`or`.
  func operand(of node: Int) -> Int { joins[~node].first }

  /// The operand after `node` in its `and`/`or`, if any.
  func next(after node: Int) -> Int? {
    let next = node >= 0 ? predicates.withUnsafeBufferPointer { $0[node].next } : joins[~node].next
    return next == PredicateNode.none ? nil : next
  }

  /// `body` with a predicate lent in place (`inout` so that it is not copied; never written:
  /// `Array.withBorrowedElement(at:)`).
  func withPredicate<Result>(at node: Int, _ body: (inout FilterPredicate) throws -> Result)
    rethrows -> Result
  {
    try predicates.withBorrowedElement(at: node) { try body(&$0.predicate) }
  }

  public static func == (left: Condition, right: Condition) -> Bool {
    switch (left.shape, right.shape) {
    case (.predicate(let one), .predicate(let other)): one == other
    case (.and(let one, let range), .and(let other, let otherRange)),
      (.or(let one, let range), .or(let other, let otherRange)):
      range == otherRange && one.elementsEqual(other)
    case (.not(let one, let range), .not(let other, let otherRange)):
      range == otherRange && one == other
    default: false
    }
  }

  /// The operands of an `and` or `or`, in order (two or more).
  public struct Operands: Sequence, Sendable {
    public let first: Condition

    public struct Iterator: IteratorProtocol {
      var current: Condition?

      public mutating func next() -> Condition? {
        defer { current = current?.next }
        return current
      }
    }

    public func makeIterator() -> Iterator { Iterator(current: first) }
  }
}

/// A predicate of a `where` tree and the operand after it in its `and`/`or`.
struct PredicateNode: Sendable {
  static let none = Int.min
  var predicate: FilterPredicate
  var next = none
}

extension [PredicateNode] {
  /// A node's range, read in place (the subscript copied the whole predicate out).
  func range(of node: Int, _ joins: [JoinNode]) -> SourceRange {
    node >= 0 ? withUnsafeBufferPointer { $0[node].predicate.range } : joins[~node].range
  }
}

/// An `and`, `or` or `not` of a `where` tree.
struct JoinNode: Sendable {
  let kind: Condition.Kind
  /// The operand (of a `not`) or the first operand, the rest following through `next`.
  let first: Int
  let range: SourceRange
  var next = PredicateNode.none
}

/// A `where` tree as the parser builds it: nodes appended as they are parsed, children first.
struct ConditionBuilder {
  var predicates: [PredicateNode] = []
  var joins: [JoinNode] = []

  /// Room for three predicates (most trees have one to three): growing copies each.
  init() { predicates.reserveCapacity(3) }

  /// A tree over `predicates` and `joins`, empty (their storage kept from a tree before:
  /// ``CheckBuilder``).
  init(predicates: [PredicateNode], joins: [JoinNode]) {
    self.predicates = predicates
    self.joins = joins
  }

  /// Appends a predicate; its node.
  mutating func add(_ predicate: consuming FilterPredicate) -> Int {
    predicates.append(PredicateNode(predicate: predicate))
    return predicates.count - 1
  }

  /// Appends an `and`, `or` or `not`; its node.
  mutating func add(_ kind: Condition.Kind, first: Int, range: SourceRange) -> Int {
    if joins.isEmpty { joins.reserveCapacity(2) }
    joins.append(JoinNode(kind: kind, first: first, range: range))
    return ~(joins.count - 1)
  }

  /// Makes `next` the operand after `previous` in their `and`/`or`.
  mutating func link(_ previous: Int, to next: Int) {
    if previous >= 0 {
      predicates[previous].next = next
    } else {
      joins[~previous].next = next
    }
  }

  func range(of node: Int) -> SourceRange { predicates.range(of: node, joins) }

  /// The tree, its arrays moved into it (read from a builder kept, they were retained and the
  /// builder's released).
  consuming func condition(_ root: Int) -> Condition {
    Condition(predicates: predicates, joins: joins, index: root)
  }
}

/// `column [not] operator[(config)] [any|all] value`, stored in its tree's node.
///
/// The text-search configuration, which few predicates write, is in a box made only when it is
/// written: in place, its name was some 30 bytes to make, move and destroy at every predicate.
public struct FilterPredicate: Sendable, Equatable {
  public let column: ColumnPath
  /// `not eq`, `not in`, `is not`.
  public let negated: Bool
  public let op: FilterOperator
  /// `like any [...]`, `eq all [...]`.
  public let quantifier: Quantifier?
  /// The text-search configuration; nil when none is written.
  private let configBox: RareBox<Name>?
  public let value: ValueNode
  /// Where the operator (word or symbol) was written.
  public let operatorRange: SourceRange
  public let range: SourceRange

  /// The text-search configuration of `fts(english)`.
  public var config: Name? { configBox?.parts }

  public static func == (left: FilterPredicate, right: FilterPredicate) -> Bool {
    left.column == right.column && left.negated == right.negated && left.op == right.op
      && left.quantifier == right.quantifier && RareBox.same(left.configBox, right.configBox)
      && left.value == right.value && left.operatorRange == right.operatorRange
      && left.range == right.range
  }

  /// `any` or `all` after an operator.
  public enum Quantifier: String, Sendable, Equatable {
    case any, all
  }
}

extension FilterPredicate {
  /// Its parts taken, not copied; made by the memberwise initializer (as ``SelectField``'s).
  @inline(__always) public init(
    column: consuming ColumnPath, negated: Bool = false, op: FilterOperator,
    quantifier: Quantifier? = nil, config: consuming Name? = nil, value: consuming ValueNode,
    operatorRange: SourceRange, range: SourceRange
  ) {
    self.init(
      column: column, negated: negated, op: op, quantifier: quantifier,
      configBox: config.map { RareBox($0) }, value: value, operatorRange: operatorRange,
      range: range)
  }
}
