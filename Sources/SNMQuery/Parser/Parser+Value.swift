/// Values: strings, numbers, literals, bare atoms, variables, `[arrays]`, `{objects}`, `(lists)`.
extension Parser {
  /// A value as the syntax tree holds it.
  mutating func parseValue(after: @autoclosure () -> String, what: String = "a value")
    throws(ParseFailure)
    -> ValueNode
  {
    var builder = ASTBuilder()
    return try parseValue(after: after(), what: what, into: &builder)
  }

  /// A value, made by `builder`.
  mutating func parseValue<Builder: SyntaxBuilder>(
    after: @autoclosure () -> String, what: String = "a value", into builder: inout Builder
  ) throws(ParseFailure) -> Builder.Value {
    record(.value)
    record(.symbol(.variable))
    let token = current
    switch token.kind {
    case .singleQuoted, .doubleQuoted:
      advance()
      return try builder.string(token) { () throws(ParseFailure) in
        try decodeString(token, interpolateBare: false)
      }
    case .number:
      advance()
      return builder.number(token, text: text(token))
    case .uuid:
      advance()
      return builder.uuid(token, text: text(token))
    case .date:
      advance()
      return builder.date(token, text: text(token))
    case .timestamp:
      advance()
      return builder.timestamp(token, text: text(token))
    case .variable:
      advance()
      return builder.variable(token, reference: variableReference(token))
    case .leftBracket:
      return try parseElements(closedBy: .rightBracket, opening: "'['", into: &builder)
    case .leftBrace:
      return try parseObject(into: &builder)
    case .leftParen:
      return try parseElements(closedBy: .rightParen, opening: "'('", into: &builder)
    case .word:
      switch token.keyword {
      case .true, .false:
        advance()
        return builder.bool(token.keyword == .true, range: token.range)
      case .null:
        advance()
        return builder.null(range: token.range)
      default:
        let word = text(token)
        let run = bareRun()
        guard run.text == word else {
          // `alice@example.com`, `o-x`: quote all of it, not its first word.
          throw failure(
            .bareWordValue(run.text), at: run.range,
            help: "quote text values: '\(run.text.replacingOccurrences(of: "'", with: "''"))'")
        }
        throw failure(
          .bareWordValue(word), at: token.range,
          help: "quote text values: '\(word)'; variables start with '$': $\(word)")
      }
    default:
      throw expectedFailure(what, after: after())
    }
  }

  /// `{"key": value, ...}` as the syntax tree holds it.
  mutating func parseObject() throws(ParseFailure) -> ValueNode {
    var builder = ASTBuilder()
    return try parseObject(into: &builder)
  }

  /// Values separated by commas from the opening bracket (the current token) to `close`: an
  /// array (`]`) or a list (`)`).
  private mutating func parseElements<Builder: SyntaxBuilder>(
    closedBy close: TokenKind, opening: String, into builder: inout Builder
  ) throws(ParseFailure) -> Builder.Value {
    let open = advance()
    try enterNesting(open)
    defer { leaveNesting() }
    // Room for four at once when any follow.
    var elements = builder.elements(room: current.kind != close ? 4 : 0)
    if current.kind != close {
      // The first element apart, as in parseSelectList: an `after:` that read `elements` held
      // the array while it grew.
      builder.append(try parseValue(after: opening, into: &builder), to: &elements)
      while eat(.comma) != nil {
        builder.append(try parseValue(after: "','", into: &builder), to: &elements)
      }
    }
    try expectClose(close, opened: open)
    // Each part handed on with `consume`: a value of a generic type was copied into the call.
    let range = SourceRange(start: open.start, end: previousEnd)
    if close == .rightBracket { return builder.array(consume elements, range: range) }
    return builder.list(consume elements, range: range)
  }

  /// `{"key": value, ...}`; keys are strings (either quote), kept in the order written.
  mutating func parseObject<Builder: SyntaxBuilder>(into builder: inout Builder)
    throws(ParseFailure) -> Builder.Value
  {
    let open = advance()
    try enterNesting(open)
    defer { leaveNesting() }
    // Room for eight members at once: grown a member at a time, four were three allocations.
    var members = builder.members(room: current.kind != .rightBrace ? 8 : 0)
    var seenKeys: Set<String> = []
    if current.kind != .rightBrace {
      repeat {
        let keyToken = current
        let key: String
        switch keyToken.kind {
        case .doubleQuoted, .singleQuoted:
          advance()
          key = try decodeQuotedName(keyToken)
        default:
          let help = keyToken.kind == .word ? "JSON keys are quoted: \"\(text(keyToken))\"" : nil
          throw expectedFailure(
            "a key in double quotes", after: builder.count(of: members) == 0 ? "'{'" : "','",
            help: help)
        }
        let count = builder.count(of: members)
        let duplicate =
          count < 16
          ? builder.contains(key: key, in: members) : !seenKeys.insert(key).inserted
        if duplicate { throw failure(.duplicateKey(key), at: keyToken.range) }
        if count == 15 { seenKeys = Set(builder.keys(of: members) + [key]) }
        guard eat(.colon) != nil else {
          throw expectedFailure("':'", after: "the key \"\(key)\"")
        }
        let value = try parseValue(after: "\"\(key)\":", into: &builder)
        builder.append(key: key, keyRange: keyToken.range, value: consume value, to: &members)
      } while eat(.comma) != nil
    }
    try expectClose(.rightBrace, opened: open)
    return builder.object(consume members, range: SourceRange(start: open.start, end: previousEnd))
  }

  /// `$name.a[0].b` or `${name.a}` as a reference.
  func variableReference(_ token: Token) -> VariableRef {
    var start = token.start + 1
    var end = token.end
    if source.bytes[start] == UInt8(ascii: "{") {
      start += 1
      end -= 1
    }
    return Parser.parseVariablePath(source.bytes, start: start, end: end, range: token.range)
  }

  /// The name and steps of a variable path between `start` and `end`.
  static func parseVariablePath(_ bytes: [UInt8], start: Int, end: Int, range: SourceRange)
    -> VariableRef
  {
    var cursor = start
    func readName(hyphens: Bool = false) -> String {
      let nameStart = cursor
      while cursor < end
        && (isNameByte(bytes[cursor]) || (hyphens && bytes[cursor] == UInt8(ascii: "-")))
      {
        cursor += 1
      }
      return String(decoding: bytes[nameStart..<cursor], as: UTF8.self)
    }
    let name = readName()
    var steps: [VariableRef.Step] = []
    while cursor < end {
      if bytes[cursor] == UInt8(ascii: ".") {
        cursor += 1
        let previous: String
        if case .field(let field)? = steps.last { previous = field } else { previous = name }
        steps.append(.field(readName(hyphens: previous == "headers")))
      } else if bytes[cursor] == UInt8(ascii: "[") {
        cursor += 1
        var index = 0
        while cursor < end && isDigit(bytes[cursor]) {
          index = min(index &* 10 &+ Int(bytes[cursor] - UInt8(ascii: "0")), 1 << 40)
          cursor += 1
        }
        cursor += 1  // ]
        steps.append(.index(index))
      } else {
        break
      }
    }
    return VariableRef(name: name, path: steps, range: range)
  }
}

extension Parser {
  /// The text written without spaces from the current token on (`alice@example.com`, `o-x`), up to
  /// a space, a separator or a closing bracket: what a bare value meant as one.
  func bareRun() -> (text: String, range: SourceRange) {
    let start = current.start
    var end = current.end
    var ahead = position + 1
    while true {
      let next = tokens[ahead]
      guard next.start == end, !next.kind.isStatementEnd else { break }
      switch next.kind {
      case .comma, .rightParen, .rightBracket, .rightBrace, .leftParen, .singleQuoted,
        .doubleQuoted:
        return (
          source.text(of: SourceRange(start: start, end: end)), SourceRange(start: start, end: end)
        )
      default:
        end = next.end
        ahead += 1
      }
    }
    return (
      source.text(of: SourceRange(start: start, end: end)), SourceRange(start: start, end: end)
    )
  }

  /// Consumes the tokens of `bareRun()`.
  mutating func skipBareRun(to end: Int) {
    while current.start < end && !current.kind.isStatementEnd { advance() }
  }
}
