/// The modifiers of CI scripts: `head`, `max affected N`, `rollback`, and `> 'out.csv'`.
extension Parser {
  mutating func parseGuard(into modifiers: inout Modifiers) throws(ParseFailure) {
    let start = current
    switch current.keyword {
    case .head:
      advance()
      guard modifiers.rare?.head == nil else {
        throw failure(.duplicateClause("head"), at: start.range)
      }
      modifiers.clauses.head = start.range
    case .max:
      advance()
      try expect(.affected, after: "'max'")
      guard modifiers.rare?.maxAffected == nil else {
        throw failure(.duplicateClause("max affected"), at: start.range)
      }
      modifiers.clauses.maxAffected = try parseValue(
        after: "'max affected'", what: "the most rows the write may change")
      modifiers.clauses.maxAffectedRange = SourceRange(start: start.start, end: previousEnd)
    default:
      advance()  // rollback
      guard modifiers.rare?.rollback == nil else {
        throw failure(.duplicateClause("rollback"), at: start.range)
      }
      modifiers.clauses.rollback = start.range
    }
  }

  /// `> 'path'`: returns whether it was there.
  mutating func parseOutputFile(into modifiers: inout Modifiers) throws(ParseFailure) -> Bool {
    guard current.kind == .greater else { return false }
    let arrow = advance()
    let token = try expectQuoted(
      "a file name in quotes", after: "'>'", help: "for example: from dog select * > 'dogs.csv'")
    guard modifiers.rare?.outputFile == nil else {
      throw failure(.duplicateClause(">"), at: arrow.range)
    }
    modifiers.clauses.outputFile = OutputFile(
      path: try decodeQuotedName(token), literal: try decodeString(token, interpolateBare: false),
      range: arrow.range.union(token.range))
    return true
  }

  /// `insert file 'dogs.json'` / `insert csv 'dogs.csv'` (after `insert`), or nil.
  mutating func parseBodyFile() throws(ParseFailure) -> BodyFile? {
    recordKeywords(["file", "csv"])
    let format: BodyFile.Format
    switch current.keyword {
    case .file: format = .json
    case .csv: format = .csv
    default: return nil
    }
    let keyword = advance()
    let spelled = text(keyword)
    let token = try expectQuoted(
      "a file name in quotes", after: "'\(spelled)'",
      help: "for example: from dog_profile insert \(spelled) 'dogs.\(format.rawValue)'")
    return BodyFile(
      path: try decodeQuotedName(token), literal: try decodeString(token, interpolateBare: false),
      format: format, range: keyword.range.union(token.range))
  }
}

extension Parser {
  /// `set output 'run.log'` (results to the file, as `\o run.log`); `set output off` (or
  /// `stdout`) sends them back.
  mutating func parseSetOutput() throws(ParseFailure) -> ShellStatement {
    let token = current
    if token.kind.isQuoted {
      advance()
      return .output(path: try decodeQuotedName(token))
    }
    if token.keyword == .off || (token.kind == .word && text(token).lowercased() == "stdout") {
      advance()
      return .output(path: nil)
    }
    throw expectedFailure(
      "a file name in quotes, or off", after: "'set output'",
      help: "for example: set output 'run.log'")
  }
}
