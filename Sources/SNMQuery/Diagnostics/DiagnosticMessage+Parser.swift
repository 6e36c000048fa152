import SNMWire

/// The parser's messages: tokens, clauses and their order.
extension DiagnosticMessage {
  /// `expected a value after 'gte'`, `expected ')' to close '(', found 'from'`.
  static func expected(_ what: String, after: String? = nil, found: String? = nil) -> Self {
    var text = "expected \(what)"
    if let after { text += " after \(after)" }
    if let found { text += ", found \(found)" }
    return Self(id: "expected", text)
  }

  static func unknownStatement(_ word: String) -> Self {
    Self(id: "unknown-statement", "unknown statement '\(word)'")
  }

  static func queryStartsWithFrom(_ verb: String) -> Self {
    Self(id: "query-starts-with-from", "a query starts with 'from <table>', not '\(verb)'")
  }

  static func unknownOperator(_ word: String) -> Self {
    Self(id: "unknown-operator", "unknown operator '\(word)'")
  }

  static func unclosed(_ open: String, close: String, found: String) -> Self {
    Self(id: "unclosed", "expected '\(close)' to close '\(open)', found \(found)")
  }

  /// `found`: a token's text in quotes (`unexpected 'extra'; ...`), or what kind of token it is
  /// (`expected the end of the statement, found a string`, which reads as "unexpected" does not).
  static func unexpectedAfterStatement(_ found: String) -> Self {
    Self(
      id: "unexpected-token",
      found.hasPrefix("'")
        ? "unexpected \(found); expected the end of the statement"
        : "expected the end of the statement, found \(found)")
  }

  static var whereAfterModifiers: Self {
    Self(
      id: "where-after-modifiers",
      "'where' comes before order by, limit, offset, single, count and returning")
  }

  static func duplicateClause(_ clause: String) -> Self {
    Self(id: "duplicate-clause", "'\(clause)' is written twice")
  }

  static var conflictingSingle: Self {
    Self(id: "conflicting-single", "'single' and 'maybe single' cannot both be written")
  }

  static var emptySelect: Self {
    Self(id: "empty-select", "expected columns after 'select'")
  }

  static func bareWordValue(_ word: String) -> Self {
    Self(id: "bare-word-value", "expected a value, found the name '\(word)'")
  }

  static func invalidIsValue(_ found: String) -> Self {
    Self(id: "invalid-is-value", "'is' takes null, true, false or unknown, found \(found)")
  }

  static func quantifierNotAllowed(_ op: String, _ quantifier: String) -> Self {
    Self(id: "quantifier-not-allowed", "'\(op)' does not take '\(quantifier)'")
  }

  static func unknownCommand(_ command: String) -> Self {
    Self(id: "unknown-command", "unknown command '\(command)'")
  }

  static func notARequest(_ what: String) -> Self {
    Self(id: "explain-not-a-request", "'explain' takes a query or an rpc, found \(what)")
  }

  static func nestingTooDeep(_ limit: Int) -> Self {
    Self(id: "nesting-too-deep", "brackets and 'not's are nested more than \(limit) deep")
  }

  static func duplicateKey(_ key: String) -> Self {
    Self(id: "duplicate-key", "the key \"\(key)\" is written twice in this object")
  }
}

/// Messages about single tokens: strings, numbers, characters, escapes.
extension DiagnosticMessage {
  static var unterminatedString: Self {
    Self(id: "unterminated-string", "unterminated string")
  }

  static func invalidCharacter(_ text: String) -> Self {
    Self(id: "invalid-character", "unexpected character '\(text)'")
  }

  static func unquotedName(_ text: String) -> Self {
    Self(
      id: "unquoted-name",
      "the name '\(text)' has characters outside A-Z a-z 0-9 _ $ and must be double-quoted")
  }

  /// The help of ``unquotedName(_:)``: `write "name"`, the name double-quoted so that, typed as
  /// shown, it is the same name: `"` and `\` escaped, and a character the diagnostic would show as
  /// `\u{202E}` written as the JSON escape a double-quoted name reads (`write "t\u202Eab"`).
  static func writeQuoted(_ name: String) -> String {
    var quoted = ""
    VisibleTextLine.forEachScalar(of: name) { scalar, hidden in
      switch scalar {
      case "\"", "\\": quoted += "\\" + String(scalar)
      case _ where hidden:
        quoted += VisibleTextLine.jsonEscape(scalar, uppercase: true)
      default: quoted.unicodeScalars.append(scalar)
      }
    }
    return "write \"" + quoted + "\""
  }

  static func malformedNumber(_ text: String) -> Self {
    Self(id: "malformed-number", "malformed number '\(text)'")
  }

  static func invalidEscape(_ text: String) -> Self {
    Self(id: "invalid-escape", "invalid escape '\(text)' in a double-quoted string")
  }

  static var invalidVariable: Self {
    Self(id: "invalid-variable", "expected a variable name after '$'")
  }
}
