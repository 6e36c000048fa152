/// The modifiers of CI scripts: `head`, `max affected N`, `rollback`, and `> 'out.csv'`.
extension ScriptStatementParser {
  static func parseGuard(_ parser: inout Parser, into modifiers: inout Modifiers)
    throws(ParseFailure)
  {
    let start = parser.current
    switch parser.current.keyword {
    case .head:
      parser.advance()
      guard modifiers.rare?.head == nil else {
        throw parser.failure(.duplicateClause("head"), at: start.range)
      }
      modifiers.clauses.head = start.range
    case .max:
      parser.advance()
      try parser.expect(.affected, after: "'max'")
      guard modifiers.rare?.maxAffected == nil else {
        throw parser.failure(.duplicateClause("max affected"), at: start.range)
      }
      modifiers.clauses.maxAffected = try ValueParser.parse(
        &parser,
        after: "'max affected'", what: "the most rows the write may change")
      modifiers.clauses.maxAffectedRange = SourceRange(start: start.start, end: parser.previousEnd)
    default:
      parser.advance()  // rollback
      guard modifiers.rare?.rollback == nil else {
        throw parser.failure(.duplicateClause("rollback"), at: start.range)
      }
      modifiers.clauses.rollback = start.range
    }
  }

  /// `> 'path'`: returns whether it was there.
  static func parseOutputFile(_ parser: inout Parser, into modifiers: inout Modifiers)
    throws(ParseFailure) -> Bool
  {
    guard parser.current.kind == .greater else { return false }
    let arrow = parser.advance()
    let token = try parser.expectQuoted(
      "a file name in quotes", after: "'>'", help: "for example: from dog select * > 'dogs.csv'")
    guard modifiers.rare?.outputFile == nil else {
      throw parser.failure(.duplicateClause(">"), at: arrow.range)
    }
    modifiers.clauses.outputFile = OutputFile(
      path: try parser.decodeQuotedName(token),
      literal: try parser.decodeString(token, interpolateBare: false),
      range: arrow.range.union(token.range))
    return true
  }

  /// `insert file 'dogs.json'` / `insert csv 'dogs.csv'` (after `insert`), or nil.
  static func parseBodyFile(_ parser: inout Parser) throws(ParseFailure) -> BodyFile? {
    parser.recordKeywords(["file", "csv"])
    let format: BodyFile.Format
    switch parser.current.keyword {
    case .file: format = .json
    case .csv: format = .csv
    default: return nil
    }
    let keyword = parser.advance()
    let spelled = parser.text(keyword)
    let token = try parser.expectQuoted(
      "a file name in quotes", after: "'\(spelled)'",
      help: "for example: from dog_profile insert \(spelled) 'dogs.\(format.rawValue)'")
    return BodyFile(
      path: try parser.decodeQuotedName(token),
      literal: try parser.decodeString(token, interpolateBare: false),
      format: format, range: keyword.range.union(token.range))
  }
}
