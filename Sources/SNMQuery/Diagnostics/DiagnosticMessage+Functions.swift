extension DiagnosticMessage {
  /// `request` with a URL of another host, or a path that does not start with `/`.
  static func notAProjectPath(_ found: String) -> Self {
    Self(
      id: "not-a-project-path",
      "'request' takes a path under the project's URL starting with '/', found \(found)")
  }

  /// `invoke` with a name that is no function's (`9lives`, `/hello`).
  static func notAFunctionName(_ found: String) -> Self {
    Self(
      id: "not-a-function-name",
      "\(found) is no function name: a letter, then letters, digits, _ or -")
  }
}
