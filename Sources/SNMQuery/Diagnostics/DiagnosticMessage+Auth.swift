/// The messages of the account, MFA, admin and inbox statements, and `as service`.
extension DiagnosticMessage {
  static func notAnID(_ what: String, found: String) -> Self {
    Self(id: "not-an-id", "\(what) must be a UUID, found \(found)")
  }

  static func notAnObject(_ clause: String, found: String) -> Self {
    Self(id: "not-an-object", "'\(clause)' needs an object {...}, found \(found)")
  }

  static func notAsService(_ what: String) -> Self {
    Self(id: "not-as-service", "'as service' runs a query, rpc or storage statement, not \(what)")
  }

  static func notAPage(found: String) -> Self {
    Self(id: "not-a-page", "'page' needs a whole number from 1, found \(found)")
  }
}
