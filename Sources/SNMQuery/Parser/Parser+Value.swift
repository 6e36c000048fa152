/// Values: strings, numbers, literals, bare atoms, variables, `[arrays]`, `{objects}`, `(lists)`.
extension Parser {
  mutating func parseValue(after: @autoclosure () -> String, what: String = "a value")
    throws(ParseFailure)
    -> ValueNode
  {
    record(.value)
    record(.symbol(.variable))
    let token = current
    switch token.kind {
    case .singleQuoted, .doubleQuoted:
      advance()
      return ValueNode(.string(try decodeString(token, interpolateBare: false)), range: token.range)
    case .number:
      advance()
      return ValueNode(.number(text(token)), range: token.range)
    case .uuid:
      advance()
      return ValueNode(.uuid(text(token)), range: token.range)
    case .date:
      advance()
      return ValueNode(.date(text(token)), range: token.range)
    case .timestamp:
      advance()
      return ValueNode(.timestamp(text(token)), range: token.range)
    case .variable:
      advance()
      return ValueNode(.variable(variableReference(token)), range: token.range)
    case .leftBracket:
      return try parseArray()
    case .leftBrace:
      return try parseObject()
    case .leftParen:
      return try parseList()
    case .word:
      switch token.keyword {
      case .true, .false:
        advance()
        return ValueNode(.bool(token.keyword == .true), range: token.range)
      case .null:
        advance()
        return ValueNode(.null, range: token.range)
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

  mutating func parseArray() throws(ParseFailure) -> ValueNode {
    try parseElements(closedBy: .rightBracket, opening: "'['") { .array($0) }
  }

  mutating func parseList() throws(ParseFailure) -> ValueNode {
    try parseElements(closedBy: .rightParen, opening: "'('") { .list($0) }
  }

  /// Values separated by commas from the opening bracket (the current token) to `close`.
  private mutating func parseElements(
    closedBy close: TokenKind, opening: String, _ make: ([ValueNode]) -> Value
  ) throws(ParseFailure) -> ValueNode {
    let open = advance()
    try enterNesting(open)
    defer { leaveNesting() }
    var elements: [ValueNode] = []
    if current.kind != close {
      elements.reserveCapacity(4)
      // The first element apart, as in parseSelectList: an `after:` that read `elements` held
      // the array while it grew.
      elements.append(try parseValue(after: opening))
      while eat(.comma) != nil {
        elements.append(try parseValue(after: "','"))
      }
    }
    try expectClose(close, opened: open)
    return ValueNode(make(elements), range: SourceRange(start: open.start, end: previousEnd))
  }

  /// `{"key": value, ...}`; keys are strings (either quote), kept in the order written.
  mutating func parseObject() throws(ParseFailure) -> ValueNode {
    let open = advance()
    try enterNesting(open)
    defer { leaveNesting() }
    var members: [ObjectMember] = []
    var seenKeys: Set<String> = []
    if current.kind != .rightBrace {
      // Room for eight members at once: grown a member at a time, four were three allocations.
      members.reserveCapacity(8)
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
            "a key in double quotes", after: members.isEmpty ? "'{'" : "','", help: help)
        }
        let duplicate =
          members.count < 16
          ? members.contains(where: { $0.key == key }) : !seenKeys.insert(key).inserted
        if duplicate { throw failure(.duplicateKey(key), at: keyToken.range) }
        if members.count == 15 { seenKeys = Set(members.map(\.key) + [key]) }
        guard eat(.colon) != nil else {
          throw expectedFailure("':'", after: "the key \"\(key)\"")
        }
        let value = try parseValue(after: "\"\(key)\":")
        members.append(ObjectMember(key: key, keyRange: keyToken.range, value: value))
      } while eat(.comma) != nil
    }
    try expectClose(.rightBrace, opened: open)
    return ValueNode(.object(members), range: SourceRange(start: open.start, end: previousEnd))
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
