/// An `or=(...)` / `and=(...)` tree of filters, possibly negated and nested.
indirect enum LogicTree: Sendable, Equatable {
  case filter(Filter)
  case group(negated: Bool, conjunction: Conjunction, children: [LogicTree])

  /// `and` or `or`.
  enum Conjunction: String, Sendable {
    case and, or
  }
}

/// One item of `order=`: a column (or JSON path) or a to-one embed's column (`rel(col)`).
struct OrderTerm: Sendable, Equatable {
  /// The embed key (alias or name) for `order=rel(col)`; nil for the resource's own column.
  var relation: String?
  var field: FieldPath
  var descending: Bool?
  /// `nullsfirst` (true) / `nullslast` (false); nil when not written.
  var nullsFirst: Bool?
}
