/// Messages of the scripts' statements: defer, within, durations, generators, guarded writes,
/// files.
extension DiagnosticMessage {
  static func invalidGenerator(_ text: String) -> Self {
    Self(id: "invalid-generator", "'${\(text)}' is not a generator")
  }

  static func deferNotAllowed(_ what: String) -> Self {
    Self(id: "defer-not-allowed", "'\(what)' cannot be deferred")
  }

  static var withinOnError: Self {
    Self(id: "within-on-error", "'within' does not apply to 'expect error'")
  }

  static var zeroInterval: Self {
    Self(id: "zero-interval", "'every' needs a duration above zero")
  }

  static func durationWithoutUnit(_ text: String) -> Self {
    Self(id: "duration-without-unit", "'\(text)' needs a unit (ms, s, m, h or d)")
  }

  static var withinWithoutRequest: Self {
    Self(
      id: "within-without-request",
      "'within' sends the statement before again, and none sent a request")
  }

  static func guardNotAllowed(_ clause: String, _ verb: String) -> Self {
    Self(id: "guard-not-allowed", "'\(clause)' does not apply to '\(verb)'")
  }

  static var headWithoutCount: Self {
    Self(id: "head-without-count", "'head' sends no rows: say which count to get")
  }

  static func unknownOutputFormat(_ path: String) -> Self {
    Self(id: "unknown-output-format", "cannot tell the format of '\(path)' from its extension")
  }
}

extension DiagnosticMessage {
  public static func bodyFileUnreadable(_ path: String, reason: String) -> Self {
    Self(id: "body-file-unreadable", "cannot read '\(path)': \(reason)")
  }
}
