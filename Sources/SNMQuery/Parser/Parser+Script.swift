/// `let`, `expect`, `echo`, `run`.
extension Parser {
  mutating func parseLet() throws(ParseFailure) -> LetStatement {
    advance()  // let
    record(.name(.newVariable))
    guard current.kind == .word else {
      throw expectedFailure("a variable name", after: "'let'", help: "for example 'let n = 3'")
    }
    let nameToken = advance()
    let name = Name(text(nameToken), range: nameToken.range)
    guard eat(.equal) != nil else {
      throw expectedFailure("'='", after: "'let \(name.text)'")
    }
    record(.keyword("from"))
    record(.keyword("rpc"))
    record(.keyword("storage"))
    recordKeywords(Parser.bindableAuthWords)
    recordKeywords(Parser.functionsWords)
    if current.keyword == .from || current.keyword == .rpc || current.keyword == .storage
      || (current.keyword == nil && Parser.bindableAuthWords.contains(text(current).lowercased()))
      || isFunctionsWord(current)
    {
      let statement = try parseStatement()
      return LetStatement(name: name, value: .statement(statement))
    }
    let value = try parseValue(after: "'='", what: "a value, a query or an rpc")
    return LetStatement(name: name, value: .value(value))
  }

  static let comparisonSymbols: [TokenKind: Comparison] = [
    .equal: .equal, .doubleEqual: .equal, .notEqual: .notEqual, .lessGreater: .notEqual,
    .less: .less, .lessEqual: .lessEqual, .greater: .greater, .greaterEqual: .greaterEqual,
  ]

  mutating func parseExpect() throws(ParseFailure) -> ExpectStatement {
    advance()  // expect
    recordKeywords(Parser.expectWords)
    switch current.keyword {
    case .rows:
      advance()
      let comparison = parseComparisonSymbol() ?? .equal
      return try parseWithin(
        .rows(comparison, try parseValue(after: "'expect rows'", what: "a number of rows")))
    case .status:
      advance()
      let comparison = parseComparisonSymbol() ?? .equal
      return try parseWithin(
        .status(comparison, try parseValue(after: "'expect status'", what: "an HTTP status")))
    case .error:
      advance()
      return try parseWithin(.error(code: try parseErrorCode()))
    default:
      recordKeywords(Parser.moreExpectWords)
      if let more = try parseMoreExpectations() { return try parseWithin(more) }
      let left = try parseValue(
        after: "'expect'", what: "rows, status, error or a value to compare")
      if let more = try parseValueExpectation(left) { return try parseWithin(more) }
      guard let comparison = try parseComparison() else {
        throw expectedFailure(
          "a comparison (== != < <= > >= contains matches)", after: "the value",
          help: "for example: expect $dog.name == 'Bori'")
      }
      let right = try parseValue(after: "'\(comparison.rawValue)'")
      return try parseWithin(.compare(left, comparison, right))
    }
  }

  mutating func parseComparisonSymbol() -> Comparison? {
    for symbol in [TokenKind.doubleEqual, .notEqual, .less, .lessEqual, .greater, .greaterEqual] {
      record(.symbol(symbol))
    }
    guard let comparison = Parser.comparisonSymbols[current.kind] else { return nil }
    advance()
    return comparison
  }

  mutating func parseComparison() throws(ParseFailure) -> Comparison? {
    if let comparison = parseComparisonSymbol() { return comparison }
    record(.keyword("contains"))
    record(.keyword("matches"))
    if eat(.contains) != nil { return .contains }
    if eat(.matches) != nil { return .matches }
    return nil
  }

  /// `expect error` takes an optional code: `23505`, `PGRST116`, `22P02`, `'refresh_token_not_found'`.
  mutating func parseErrorCode() throws(ParseFailure) -> ValueNode? {
    let token = current
    switch token.kind {
    case .word where token.keyword == .within:
      return nil
    case .word, .malformedNumber, .number:
      advance()
      return ValueNode(.word(text(token)), range: token.range)
    case .singleQuoted, .doubleQuoted, .variable:
      return try parseValue(after: "'expect error'", what: "an error code")
    default:
      return nil
    }
  }

  mutating func parseEcho() throws(ParseFailure) -> EchoStatement {
    let keyword = advance()
    let token = current
    switch token.kind {
    case .singleQuoted, .doubleQuoted:
      advance()
      let literal = try decodeString(token, interpolateBare: true)
      return EchoStatement(value: ValueNode(.string(literal), range: token.range))
    case .newline, .semicolon, .endOfFile:
      return EchoStatement(value: ValueNode(.string(StringLiteral("")), range: .point(keyword.end)))
    default:
      return EchoStatement(
        value: try parseValue(after: "'echo'", what: "a string or value to print"))
    }
  }

  mutating func parseRun() throws(ParseFailure) -> RunStatement {
    let keyword = advance()
    let spelled = text(keyword)
    return try parsePath(after: "'\(spelled)'")
  }

  /// A file path: a quoted string, or the rest of the statement as written.
  mutating func parsePath(after: @autoclosure () -> String) throws(ParseFailure) -> RunStatement {
    record(.name(.file))
    if let (path, token) = try quotedNameAtEnd() {
      return RunStatement(path: path, pathRange: token.range)
    }
    guard let (path, range) = parseRawRest() else {
      throw expectedFailure("a script file", after: after(), help: "for example 'run setup.snm'")
    }
    return RunStatement(path: path, pathRange: range)
  }
}
