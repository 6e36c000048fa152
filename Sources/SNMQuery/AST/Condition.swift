/// A `where` tree: predicates joined by `and`, `or`, `not` and parentheses.
public enum Condition: Sendable, Equatable {
  case predicate(FilterPredicate)
  case and([Condition], range: SourceRange)
  case or([Condition], range: SourceRange)
  indirect case not(Condition, range: SourceRange)

  public var range: SourceRange {
    switch self {
    case .predicate(let predicate): predicate.range
    case .and(_, let range), .or(_, let range), .not(_, let range): range
    }
  }
}

/// `column [not] operator[(config)] [any|all] value`. A class, shared rather than copied (see
/// `QueryStatement`).
public final class FilterPredicate: Sendable, Equatable {
  public let column: ColumnPath
  /// `not eq`, `not in`, `is not`.
  public let negated: Bool
  public let op: FilterOperator
  /// `like any [...]`, `eq all [...]`.
  public let quantifier: Quantifier?
  /// The text-search configuration of `fts(english)`.
  public let config: Name?
  public let value: ValueNode
  /// Where the operator (word or symbol) was written.
  public let operatorRange: SourceRange
  public let range: SourceRange

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

  public static func == (left: FilterPredicate, right: FilterPredicate) -> Bool {
    left === right
      || (left.column == right.column && left.negated == right.negated && left.op == right.op
        && left.quantifier == right.quantifier && left.config == right.config
        && left.value == right.value && left.operatorRange == right.operatorRange
        && left.range == right.range)
  }

  /// `any` or `all` after an operator.
  public enum Quantifier: String, Sendable, Equatable {
    case any, all
  }
}
