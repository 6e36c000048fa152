/// A column with an optional JSON path: `data`, `data->>blood`, `tags->0`, `doc->a->-1`.
struct FieldPath: Sendable, Equatable, Hashable {
  /// One `->` or `->>` step of a JSON path.
  struct Step: Sendable, Equatable, Hashable {
    /// `->>` (text) rather than `->` (json).
    var asText: Bool
    var operand: Operand
  }

  /// A key (`->name`) or an array index (`->0`, `->-1`).
  enum Operand: Sendable, Equatable, Hashable {
    case key(String)
    case index(Int)
  }

  var name: String
  var path: [Step] = []

  /// The name PostgREST gives the value in JSON output when no alias is written: the last key
  /// of the path (`data->>blood` is `blood`, `data->1->x->>2` is `x`), else the column.
  var outputName: String {
    if path.isEmpty { return name }
    for step in path.reversed() {
      if case .key(let key) = step.operand { return key }
    }
    return name
  }
}
