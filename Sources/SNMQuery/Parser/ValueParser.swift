/// Values: strings, numbers, literals, bare atoms, variables, `[arrays]`, `{objects}`, `(lists)`.
/// A type of its own over the ``Parser``'s cursor, as ``ConditionParser`` is: each function takes
/// the parser `inout`, so its tokens are never copied.
enum ValueParser {
  /// A value as the syntax tree holds it.
  static func parse(
    _ parser: inout Parser, after: @autoclosure () -> String, what: String = "a value"
  )
    throws(ParseFailure)
    -> ValueNode
  {
    var builder = ASTBuilder()
    return try parse(&parser, after: after(), what: what, into: &builder)
  }

  /// A value, made by `builder`.
  static func parse<Builder: SyntaxBuilder>(
    _ parser: inout Parser,
    after: @autoclosure () -> String, what: String = "a value", into builder: inout Builder
  ) throws(ParseFailure) -> Builder.Value {
    parser.record(.value)
    parser.record(.symbol(.variable))
    let token = parser.current
    switch token.kind {
    case .singleQuoted, .doubleQuoted:
      parser.advance()
      return try builder.string(token) { () throws(ParseFailure) in
        try parser.decodeString(token, interpolateBare: false)
      }
    case .number:
      parser.advance()
      return builder.number(token, text: parser.text(token))
    case .uuid:
      parser.advance()
      return builder.uuid(token, text: parser.text(token))
    case .date:
      parser.advance()
      return builder.date(token, text: parser.text(token))
    case .timestamp:
      parser.advance()
      return builder.timestamp(token, text: parser.text(token))
    case .variable:
      parser.advance()
      return builder.variable(token, reference: variableReference(token, in: parser.source))
    case .leftBracket:
      return try parseElements(&parser, closedBy: .rightBracket, opening: "'['", into: &builder)
    case .leftBrace:
      return try parseObject(&parser, into: &builder)
    case .leftParen:
      return try parseElements(&parser, closedBy: .rightParen, opening: "'('", into: &builder)
    case .word:
      switch token.keyword {
      case .true, .false:
        parser.advance()
        return builder.bool(token.keyword == .true, range: token.range)
      case .null:
        parser.advance()
        return builder.null(range: token.range)
      default:
        let word = parser.text(token)
        let run = bareRun(parser)
        guard run.text == word else {
          // `alice@example.com`, `o-x`: quote all of it, not its first word.
          throw parser.failure(
            .bareWordValue(run.text), at: run.range,
            help: "quote text values: '\(run.text.replacingOccurrences(of: "'", with: "''"))'")
        }
        throw parser.failure(
          .bareWordValue(word), at: token.range,
          help: "quote text values: '\(word)'; variables start with '$': $\(word)")
      }
    default:
      throw parser.expectedFailure(what, after: after())
    }
  }

  /// Whether a value may start at a token of `kind`: at any other, ``parse(_:after:what:into:)``
  /// fails saying what it expected after what.
  static func startsValue(_ kind: TokenKind) -> Bool {
    switch kind {
    case .singleQuoted, .doubleQuoted, .number, .uuid, .date, .timestamp, .variable, .leftBracket,
      .leftBrace, .leftParen, .word:
      true
    default: false
    }
  }

  /// `{"key": value, ...}` as the syntax tree holds it.
  static func parseObject(_ parser: inout Parser) throws(ParseFailure) -> ValueNode {
    var builder = ASTBuilder()
    return try parseObject(&parser, into: &builder)
  }

  /// Values separated by commas from the opening bracket (the current token) to `close`: an
  /// array (`]`) or a list (`)`).
  private static func parseElements<Builder: SyntaxBuilder>(
    _ parser: inout Parser,
    closedBy close: TokenKind, opening: String, into builder: inout Builder
  ) throws(ParseFailure) -> Builder.Value {
    let open = parser.advance()
    try parser.enterNesting(open)
    defer { parser.leaveNesting() }
    // Room for four at once when any follow.
    var elements = builder.elements(room: parser.current.kind != close ? 4 : 0)
    if parser.current.kind != close {
      // The first element apart, as in parseSelectList: an `after:` that read `elements` held
      // the array while it grew.
      builder.append(try parse(&parser, after: opening, into: &builder), to: &elements)
      while parser.eat(.comma) != nil {
        builder.append(try parse(&parser, after: "','", into: &builder), to: &elements)
      }
    }
    try parser.expectClose(close, opened: open)
    // Each part handed on with `consume`: a value of a generic type was copied into the call.
    let range = SourceRange(start: open.start, end: parser.previousEnd)
    if close == .rightBracket { return builder.array(consume elements, range: range) }
    return builder.list(consume elements, range: range)
  }

  /// `{"key": value, ...}`; keys are strings (either quote), kept in the order written. Each key
  /// is compared with its object's keys before it as an ``ObjectKey`` (a plain ASCII key's bytes,
  /// no String) on the parser's stack of keys (`Parser.objectKeys`), past the sixteenth in a set
  /// of their texts; a builder makes a key's text only if it keeps it.
  static func parseObject<Builder: SyntaxBuilder>(
    _ parser: inout Parser, into builder: inout Builder
  )
    throws(ParseFailure) -> Builder.Value
  {
    let open = parser.advance()
    try parser.enterNesting(open)
    // This object's keys on the stack start here; they are let go when it ends, read or failed.
    let keys = parser.objectKeys
    let mark = keys.mark
    defer {
      parser.leaveNesting()
      keys.pop(to: mark)
    }
    // Room for eight members at once: grown a member at a time, four were three allocations.
    var members = builder.members(room: parser.current.kind != .rightBrace ? 8 : 0)
    var count = 0
    // Past 16 keys, each is looked up in a set instead of compared with every key before it.
    var seenKeys: Set<String> = []
    if parser.current.kind != .rightBrace {
      repeat {
        let keyToken = parser.current
        guard keyToken.kind == .doubleQuoted || keyToken.kind == .singleQuoted else {
          let help =
            keyToken.kind == .word ? "JSON keys are quoted: \"\(parser.text(keyToken))\"" : nil
          throw parser.expectedFailure(
            "a key in double quotes", after: count == 0 ? "'{'" : "','", help: help)
        }
        parser.advance()
        let key = try parser.objectKey(keyToken)
        let duplicate =
          count < 16 ? keys.contains(key, since: mark) : !seenKeys.insert(key.text).inserted
        if duplicate { throw parser.failure(.duplicateKey(key.text), at: keyToken.range) }
        if count < 16 { keys.push(key) }
        if count == 15 { seenKeys = Set(keys.texts(since: mark)) }
        count &+= 1
        guard parser.eat(.colon) != nil else {
          throw parser.expectedFailure("':'", after: "the key \"\(key.text)\"")
        }
        if !Builder.keepsConstantMembers && skipConstant(&parser) { continue }
        let value = try parse(&parser, after: "\"\(key.text)\":", into: &builder)
        builder.append(key: key.text, keyRange: keyToken.range, value: consume value, to: &members)
      } while parser.eat(.comma) != nil
    }
    try parser.expectClose(.rightBrace, opened: open)
    return builder.object(
      consume members, range: SourceRange(start: open.start, end: parser.previousEnd))
  }

  /// Steps over the current token when it is a value of one token that ``parse(_:after:what:into:)``
  /// reads without a failure and that holds no variable (a string with no escape and no `$`, a
  /// number, a UUID, a date, a timestamp, `true`, `false`, `null`); whether it did. Recorded for
  /// completion as `parse` records a value.
  @inline(__always) private static func skipConstant(_ parser: inout Parser) -> Bool {
    let token = parser.current
    switch token.kind {
    case .number, .uuid, .date, .timestamp: break
    case .singleQuoted, .doubleQuoted:
      guard !token.flags.contains(.hasEscapes) && !token.flags.contains(.hasDollar) else {
        return false
      }
    case .word:
      guard token.keyword == .true || token.keyword == .false || token.keyword == .null else {
        return false
      }
    default: return false
    }
    parser.record(.value)
    parser.record(.symbol(.variable))
    parser.advance()
    return true
  }

  /// `$name.a[0].b` or `${name.a}` as a reference.
  static func variableReference(_ token: Token, in source: Source) -> VariableRef {
    var start = token.start + 1
    var end = token.end
    if source.bytes[start] == UInt8(ascii: "{") {
      start += 1
      end -= 1
    }
    return parseVariablePath(source.bytes, start: start, end: end, range: token.range)
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

  /// The text written without spaces from the current token on (`alice@example.com`, `o-x`), up to
  /// a space, a separator or a closing bracket: what a bare value meant as one.
  static func bareRun(_ parser: Parser) -> (text: String, range: SourceRange) {
    let start = parser.current.start
    var end = parser.current.end
    var ahead = parser.position + 1
    while true {
      let next = parser.tokens[ahead]
      guard next.start == end, !next.kind.isStatementEnd else { break }
      switch next.kind {
      case .comma, .rightParen, .rightBracket, .rightBrace, .leftParen, .singleQuoted,
        .doubleQuoted:
        return (
          parser.source.text(of: SourceRange(start: start, end: end)),
          SourceRange(start: start, end: end)
        )
      default:
        end = next.end
        ahead += 1
      }
    }
    return (
      parser.source.text(of: SourceRange(start: start, end: end)),
      SourceRange(start: start, end: end)
    )
  }

  /// Consumes the tokens of `bareRun()`.
  static func skipBareRun(_ parser: inout Parser, to end: Int) {
    while parser.current.start < end && !parser.current.kind.isStatementEnd { parser.advance() }
  }
}
