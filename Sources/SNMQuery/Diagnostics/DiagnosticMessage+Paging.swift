/// The messages about `all` (a select read a page at a time).
extension DiagnosticMessage {
  static func allWithClause(_ clause: String) -> Self {
    Self(id: "all-with-clause", "'all' reads every row and cannot take '\(clause)'")
  }

}
