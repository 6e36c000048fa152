/// The grammar of the script statements: `let`, `expect` (its Hurl-style forms in +Expectations),
/// `echo`, `run`, `defer` (+Defer), and the guards CI scripts put on queries (+Guards).
/// A value type of its own over the ``Parser``'s cursor: each function takes the parser `inout`
/// (as ``RealtimeStatementParser``'s do), so its tokens are never copied.
enum ScriptStatementParser {
  static func parseLet<Builder: TreeBuilder>(_ parser: inout Parser, into builder: inout Builder)
    throws(ParseFailure) -> LetStatement
  {
    parser.advance()  // let
    parser.record(.name(.newVariable))
    guard parser.current.kind == .word else {
      throw parser.expectedFailure(
        "a variable name", after: "'let'", help: "for example 'let n = 3'")
    }
    let nameToken = parser.advance()
    let name = Name(parser.text(nameToken), range: nameToken.range)
    guard parser.eat(.equal) != nil else {
      throw parser.expectedFailure("'='", after: "'let \(name.text)'")
    }
    parser.record(.keyword("from"))
    parser.record(.keyword("rpc"))
    parser.record(.keyword("storage"))
    parser.recordKeywords(AuthStatementParser.bindableWords)
    parser.recordKeywords(FunctionsStatementParser.words)
    if parser.current.keyword == .from || parser.current.keyword == .rpc
      || parser.current.keyword == .storage
      || (parser.current.keyword == nil
        && AuthStatementParser.bindableWords.contains(parser.text(parser.current).lowercased()))
      || FunctionsStatementParser.starts(parser, parser.current)
    {
      let statement = try parser.parseStatement(into: &builder)
      return LetStatement(name: name, value: .statement(statement))
    }
    let value = try ValueParser.parse(
      &parser,
      after: "'='", what: "a value, a query or an rpc", into: &builder)
    return LetStatement(name: name, value: .value(value))
  }

  static let comparisonSymbols: [TokenKind: Comparison] = [
    .equal: .equal, .doubleEqual: .equal, .notEqual: .notEqual, .lessGreater: .notEqual,
    .less: .less, .lessEqual: .lessEqual, .greater: .greater, .greaterEqual: .greaterEqual,
  ]

  static func parseExpect(_ parser: inout Parser) throws(ParseFailure) -> ExpectStatement {
    parser.advance()  // expect
    parser.recordKeywords(Parser.expectWords)
    switch parser.current.keyword {
    case .rows:
      parser.advance()
      let comparison = parseComparisonSymbol(&parser) ?? .equal
      return try parseWithin(
        &parser,
        .rows(
          comparison,
          try ValueParser.parse(&parser, after: "'expect rows'", what: "a number of rows")))
    case .status:
      parser.advance()
      let comparison = parseComparisonSymbol(&parser) ?? .equal
      return try parseWithin(
        &parser,
        .status(
          comparison,
          try ValueParser.parse(&parser, after: "'expect status'", what: "an HTTP status"))
      )
    case .error:
      parser.advance()
      return try parseWithin(&parser, .error(code: try parseErrorCode(&parser)))
    default:
      parser.recordKeywords(Self.moreExpectWords)
      if let more = try parseMoreExpectations(&parser) { return try parseWithin(&parser, more) }
      let left = try ValueParser.parse(
        &parser,
        after: "'expect'", what: "rows, status, error or a value to compare")
      if let more = try parseValueExpectation(&parser, left) {
        return try parseWithin(&parser, more)
      }
      guard let comparison = try parseComparison(&parser) else {
        throw parser.expectedFailure(
          "a comparison (== != < <= > >= contains matches)", after: "the value",
          help: "for example: expect $dog.name == 'Bori'")
      }
      let right = try ValueParser.parse(&parser, after: "'\(comparison.rawValue)'")
      return try parseWithin(&parser, .compare(left, comparison, right))
    }
  }

  static func parseComparisonSymbol(_ parser: inout Parser) -> Comparison? {
    for symbol in [TokenKind.doubleEqual, .notEqual, .less, .lessEqual, .greater, .greaterEqual] {
      parser.record(.symbol(symbol))
    }
    guard let comparison = Self.comparisonSymbols[parser.current.kind] else { return nil }
    parser.advance()
    return comparison
  }

  static func parseComparison(_ parser: inout Parser) throws(ParseFailure) -> Comparison? {
    if let comparison = parseComparisonSymbol(&parser) { return comparison }
    parser.record(.keyword("contains"))
    parser.record(.keyword("matches"))
    if parser.eat(.contains) != nil { return .contains }
    if parser.eat(.matches) != nil { return .matches }
    return nil
  }

  /// `expect error` takes an optional code: `23505`, `PGRST116`, `22P02`, `'refresh_token_not_found'`.
  static func parseErrorCode(_ parser: inout Parser) throws(ParseFailure) -> ValueNode? {
    let token = parser.current
    switch token.kind {
    case .word where token.keyword == .within:
      return nil
    case .word, .malformedNumber, .number:
      parser.advance()
      return ValueNode(.word(parser.text(token)), range: token.range)
    case .singleQuoted, .doubleQuoted, .variable:
      return try ValueParser.parse(&parser, after: "'expect error'", what: "an error code")
    default:
      return nil
    }
  }

  static func parseEcho(_ parser: inout Parser) throws(ParseFailure) -> EchoStatement {
    let keyword = parser.advance()
    let token = parser.current
    switch token.kind {
    case .singleQuoted, .doubleQuoted:
      parser.advance()
      let literal = try parser.decodeString(token, interpolateBare: true)
      return EchoStatement(value: ValueNode(.string(literal), range: token.range))
    case .newline, .semicolon, .endOfFile:
      return EchoStatement(value: ValueNode(.string(StringLiteral("")), range: .point(keyword.end)))
    default:
      return EchoStatement(
        value: try ValueParser.parse(&parser, after: "'echo'", what: "a string or value to print"))
    }
  }

  static func parseRun(_ parser: inout Parser) throws(ParseFailure) -> RunStatement {
    let keyword = parser.advance()
    let spelled = parser.text(keyword)
    return try parsePath(&parser, after: "'\(spelled)'")
  }

  /// A file path: a quoted string, or the rest of the statement as written.
  static func parsePath(_ parser: inout Parser, after: @autoclosure () -> String)
    throws(ParseFailure) -> RunStatement
  {
    parser.record(.name(.file))
    if let (path, token) = try parser.quotedNameAtEnd() {
      return RunStatement(path: path, pathRange: token.range)
    }
    guard let (path, range) = ShellStatementParser.rawRest(&parser) else {
      throw parser.expectedFailure(
        "a script file", after: after(), help: "for example 'run setup.snm'")
    }
    return RunStatement(path: path, pathRange: range)
  }
}
