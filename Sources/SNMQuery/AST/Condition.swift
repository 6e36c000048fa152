/// A `where` tree: predicates joined by `and`, `or`, `not` and parentheses.
public indirect enum Condition: Sendable, Equatable {
  case predicate(FilterPredicate)
  case and([Condition], range: SourceRange)
  case or([Condition], range: SourceRange)
  case not(Condition, range: SourceRange)

  public var range: SourceRange {
    switch self {
    case .predicate(let predicate): predicate.range
    case .and(_, let range), .or(_, let range), .not(_, let range): range
    }
  }
}

/// `column [not] operator[(config)] [any|all] value`.
public struct FilterPredicate: Sendable, Equatable {
  public var column: ColumnPath
  /// `not eq`, `not in`, `is not`.
  public var negated: Bool
  public var op: FilterOperator
  /// `like any [...]`, `eq all [...]`.
  public var quantifier: Quantifier?
  /// The text-search configuration of `fts(english)`.
  public var config: Name?
  public var value: ValueNode
  /// Where the operator (word or symbol) was written.
  public var operatorRange: SourceRange
  public var range: SourceRange

  public init(
    column: ColumnPath, negated: Bool = false, op: FilterOperator, quantifier: Quantifier? = nil,
    config: Name? = nil, value: ValueNode, operatorRange: SourceRange, range: SourceRange
  ) {
    self.column = column
    self.negated = negated
    self.op = op
    self.quantifier = quantifier
    self.config = config
    self.value = value
    self.operatorRange = operatorRange
    self.range = range
  }

  /// `any` or `all` after an operator.
  public enum Quantifier: String, Sendable, Equatable {
    case any, all
  }
}
