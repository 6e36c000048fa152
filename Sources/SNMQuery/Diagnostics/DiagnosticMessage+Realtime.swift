/// The messages about Realtime statements.
extension DiagnosticMessage {
  static func realtimeOr(_ clause: String) -> Self {
    Self(id: "realtime-or", "\(clause) joins conditions with 'and' only")
  }

  static func realtimeOperator(_ op: String, _ clause: String) -> Self {
    Self(id: "realtime-operator", "\(clause) cannot take '\(op)'")
  }

  static func realtimeColumnPath(_ clause: String) -> Self {
    Self(id: "realtime-column-path", "\(clause) names a column of the table, not a path")
  }

  static func realtimePayload(_ statement: String, found: String) -> Self {
    Self(id: "realtime-payload", "'\(statement)' sends a JSON object, not \(found)")
  }

  static func realtimeGroup(_ clause: String) -> Self {
    Self(id: "realtime-group", "\(clause) cannot take a negated or parenthesised group")
  }
}
