/// Checks of `all`: a select read a page at a time, with nothing that bounds or replaces its rows.
extension Checker {
  mutating func checkAll(_ modifiers: Modifiers, verb: String) {
    guard let range = modifiers.rare?.all else { return }
    guard verb == "select" else {
      report(
        .clauseNotAllowed("all", verb), at: range,
        help: verb.hasPrefix("rpc")
          ? "an rpc would run its function again for each page: add 'limit' and 'offset' instead"
          : "'all' reads every row of a select, a page at a time")
      return
    }
    let bounds: [(String, SourceRange?)] = [
      ("limit", modifiers.limit?.range), ("single", modifiers.singleRange),
      ("head", modifiers.rare?.head), ("plan", modifiers.rare?.planRange),
    ]
    for case (let clause, let clauseRange?) in bounds {
      report(
        .allWithClause(clause), at: clauseRange,
        help: clause == "limit"
          ? "drop 'limit' to read every row, or drop 'all' to read at most that many"
          : "drop 'all' or '\(clause)'")
    }
  }
}
