import Testing

@testable import SNMQuery

/// Tokens as a compact list: `kw:from`, `name:user_info`, `str:'a'`, `num:3`, `;`, `nl`.
func tokenSummary(_ text: String) -> [String] {
  let source = Source(text: text)
  return Lexer.tokenize(source).tokens.dropLast().map { token in
    let spelled = source.text(of: token.range)
    switch token.kind {
    case .word: return token.keyword != nil ? "kw:\(spelled.lowercased())" : "name:\(spelled)"
    case .doubleQuoted: return "dq:\(spelled)"
    case .singleQuoted: return "sq:\(spelled)"
    case .number: return "num:\(spelled)"
    case .uuid: return "uuid:\(spelled)"
    case .date: return "date:\(spelled)"
    case .timestamp: return "ts:\(spelled)"
    case .variable: return "var:\(spelled)"
    case .backslashCommand: return "cmd:\(spelled)"
    case .newline: return "nl"
    case .unterminatedString: return "unterminated:\(spelled)"
    case .malformedNumber: return "badnum:\(spelled)"
    case .invalid: return "invalid:\(spelled)"
    default: return spelled
    }
  }
}

struct LexCase: Sendable, CustomTestStringConvertible {
  var input: String
  var tokens: [String]
  var testDescription: String { input.debugDescription }
  init(_ input: String, _ tokens: [String]) {
    self.input = input
    self.tokens = tokens
  }
}

@Suite struct LexerTests {
  static let cases: [LexCase] = [
    // keywords are case-insensitive; names keep their case
    LexCase("FROM User_Info SeLeCt *", ["kw:from", "name:User_Info", "kw:select", "*"]),
    LexCase("from user_info select id", ["kw:from", "name:user_info", "kw:select", "name:id"]),
    LexCase("a$b _x x1", ["name:a$b", "name:_x", "name:x1"]),
    // quoted names and both string quotes
    LexCase(#""Order Items" "information.cpe""#, [#"dq:"Order Items""#, #"dq:"information.cpe""#]),
    LexCase("'it''s' 'a'", ["sq:'it''s'", "sq:'a'"]),
    LexCase(#""say \"hi\"" "\u00e9""#, [#"dq:"say \"hi\"""#, #"dq:"\u00e9""#]),
    LexCase("'#not a comment' \"-- nor this\"", ["sq:'#not a comment'", "dq:\"-- nor this\""]),
    // numbers
    LexCase(
      "3 -1 37.5 127.0 1e5 -2.5E-3 0",
      [
        "num:3", "num:-1", "num:37.5", "num:127.0", "num:1e5", "num:-2.5E-3", "num:0",
      ]),
    LexCase("01 3abc", ["badnum:01", "badnum:3abc"]),
    // bare UUIDs, dates, timestamps
    LexCase(
      "0c8e5f7a-6b9d-4f1e-9a3b-2d4c6e8f0a1b", ["uuid:0c8e5f7a-6b9d-4f1e-9a3b-2d4c6e8f0a1b"]),
    LexCase(
      "ABCDEF01-6B9D-4F1E-9A3B-2D4C6E8F0A1B", ["uuid:ABCDEF01-6B9D-4F1E-9A3B-2D4C6E8F0A1B"]),
    // a word of eight name bytes before a `-` is looked at as a UUID, and is a word when it is not
    LexCase(
      "abcdef01-6b9d-4f1e-9a3b-2d4c6e8f0a1b abcdefgh-x ghijklmn->'k' abcdef01-6b9d ab-c",
      [
        "uuid:abcdef01-6b9d-4f1e-9a3b-2d4c6e8f0a1b", "name:abcdefgh", "invalid:-", "name:x",
        "name:ghijklmn", "->", "sq:'k'", "name:abcdef01", "badnum:-6b9d", "name:ab", "invalid:-",
        "name:c",
      ]),
    LexCase("2026-11-29", ["date:2026-11-29"]),
    LexCase("2026-11-29T10:00:00Z", ["ts:2026-11-29T10:00:00Z"]),
    LexCase(
      "2026-11-29T10:00:00.123+09:00 2026-11-29T10:00",
      [
        "ts:2026-11-29T10:00:00.123+09:00", "ts:2026-11-29T10:00",
      ]),
    LexCase("2026-11-2x", ["badnum:2026-11-2x"]),
    // variables
    LexCase(
      "$dog $dog.id $rows[0].name ${name} $env.HOME $session.user_id",
      [
        "var:$dog", "var:$dog.id", "var:$rows[0].name", "var:${name}", "var:$env.HOME",
        "var:$session.user_id",
      ]),
    LexCase("$ ${bad name}", ["invalid:$", "invalid:${bad name}"]),
    LexCase("$x.", ["var:$x", "."]),
    // operators in symbol form
    LexCase(
      "= == != <> < <= > >= ~ ~*",
      [
        "=", "==", "!=", "<>", "<", "<=", ">", ">=", "~", "~*",
      ]),
    LexCase(
      "data->>blood data->'a'->0 age::text nick:name !inner ...rel",
      [
        "name:data", "->>", "name:blood", "name:data", "->", "sq:'a'", "->", "num:0", "name:age",
        "::", "name:text", "name:nick", ":", "name:name", "!", "name:inner", "...", "name:rel",
      ]),
    // comments
    LexCase(
      "from t select * # all rows\nfrom u select * -- again",
      [
        "kw:from", "name:t", "kw:select", "*", "nl", "kw:from", "name:u", "kw:select", "*",
      ]),
    // statement ends: newline and ';', not inside brackets, not after a trailing backslash
    LexCase("a;b\nc", ["name:a", ";", "name:b", "nl", "name:c"]),
    LexCase(
      "x (a,\n b) [1,\n2] {\"k\":\n1}",
      [
        "name:x", "(", "name:a", ",", "name:b", ")", "[", "num:1", ",", "num:2", "]", "{",
        "dq:\"k\"", ":", "num:1", "}",
      ]),
    LexCase("from t \\\n select *", ["kw:from", "name:t", "kw:select", "*"]),
    LexCase("(a; b\nc", ["(", "name:a", ";", "name:b", "nl", "name:c"]),
    // psql-style commands
    LexCase(
      "\\q \\dt \\timing \\d t", ["cmd:\\q", "cmd:\\dt", "cmd:\\timing", "cmd:\\d", "name:t"]),
    LexCase("\\? \\h where", ["cmd:\\?", "cmd:\\h", "kw:where"]),
    LexCase("\\d+ t \\dt+", ["cmd:\\d+", "name:t", "cmd:\\dt+"]),
    LexCase("\\?x \\+", ["cmd:\\?", "name:x", "invalid:\\", "invalid:+"]),
    // errors are tokens, never thrown
    LexCase("'open\nnext", ["unterminated:'open", "nl", "name:next"]),
    LexCase("\"open", ["unterminated:\"open"]),
    LexCase(
      "이름 name이름 a/b @",
      ["invalid:이름", "invalid:name이름", "name:a", "invalid:/", "name:b", "invalid:@"]),
    LexCase("a - b", ["name:a", "invalid:-", "name:b"]),
  ]

  @Test(arguments: cases)
  func tokens(_ testCase: LexCase) {
    #expect(tokenSummary(testCase.input) == testCase.tokens)
  }

  @Test func offsetsAreUTF8Bytes() {
    let source = Source(text: "from \"이름\" select *")
    let tokens = Lexer.tokenize(source).tokens
    #expect(tokens[1].range == SourceRange(start: 5, end: 13))
    #expect(tokens[2].start == 14)
    #expect(source.location(of: tokens[2].start) == SourceLocation(line: 1, column: 11))
  }

  @Test func aSourceStartingFurtherDownItsInputNamesTheInputsLines() {
    // Standard input runs a statement at a time: the statement on line 7 is its own source.
    let source = Source(text: "from t\nselect *, \"이름\"", fileName: "stdin", firstLine: 7)
    let offset = source.bytes.count - 1
    #expect(source.location(of: 2) == SourceLocation(line: 7, column: 3))
    #expect(source.location(of: offset) == SourceLocation(line: 8, column: 14))
    #expect(source.location(of: offset, using: LineIndex(source)) == source.location(of: offset))
    let diagnostic = Diagnostic(
      DiagnosticMessage(id: "test", "no"), at: SourceRange(start: 7, end: 13))
    #expect(
      DiagnosticRenderer(colored: false).render([diagnostic], in: source).hasPrefix(
        "stdin:8:1: error: no\n"))
  }

  @Test func keywordLookupIgnoresCase() {
    #expect(Keyword.lookup(ArraySlice("ContainedBy".utf8)) == .containedby)
    #expect(Keyword.lookup(ArraySlice("ON_ERROR".utf8)) == .on_error)
    #expect(Keyword.lookup(ArraySlice("user_info".utf8)) == nil)
  }

  @Test func statementsStaySmall() {
    // `snm check` hands each statement on several times: every payload is a reference.
    #expect(MemoryLayout<Statement.Kind>.size <= MemoryLayout<Int>.size)
  }

  @Test func tokensStaySmall() {
    // Two million tokens for a 100,000-statement script: 12 bytes each, not 32.
    #expect(MemoryLayout<Token>.stride <= 12)
    let token = Token(kind: .word, start: 70000, end: 70005)
    #expect(token.range == SourceRange(start: 70000, end: 70005))
  }

  @Test func everyKeywordIsFoundAndNothingElse() {
    for keyword in Keyword.allCases {
      let word = keyword.rawValue
      #expect(Keyword.lookup(ArraySlice(word.utf8)) == keyword)
      #expect(Keyword.lookup(ArraySlice(word.uppercased().utf8)) == keyword)
      // Near misses: one letter short, one letter more, a letter changed.
      #expect(Keyword.lookup(ArraySlice(word.dropLast().utf8)).map { $0.rawValue } != word)
      #expect(Keyword.lookup(ArraySlice((word + "s").utf8)).map { $0.rawValue } != word)
      #expect(Keyword.lookup(ArraySlice(("x" + word.dropFirst()).utf8)) != keyword)
    }
    #expect(Keyword.lookup(ArraySlice("dog_profile".utf8)) == nil)
    #expect(Keyword.lookup(ArraySlice("".utf8)) == nil)
    #expect(Keyword.lookup(ArraySlice("selectselectselectx".utf8)) == nil)
  }

  @Test func nameBytesAreLettersDigitsUnderscoreAndDollar() {
    for value in 0...255 {
      let byte = UInt8(value)
      let expected =
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
        || (byte >= 0x30 && byte <= 0x39) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "$")
      #expect(isNameByte(byte) == expected, "byte \(value)")
    }
  }

  @Test func keywordLookupInPlaceAgreesWithTheSliceLookup() {
    // Words near the end of the source are packed a byte at a time, the others by two loads.
    let text = Array("xx FROM user_info ContainedBy selectselectselectx ON_ERROR on_error Or".utf8)
    var start = 0
    for end in 0...text.count where end == text.count || text[end] == UInt8(ascii: " ") {
      let found = text.withUnsafeBufferPointer {
        KeywordTable.shared.find(in: $0, from: start, to: end)
      }
      #expect(
        found == Keyword.lookup(text[start..<end]),
        "\(String(decoding: text[start..<end], as: UTF8.self))")
      start = end + 1
    }
    #expect(Keyword.lookup(ArraySlice("on\u{7F}error".utf8)) == nil)
    #expect(Keyword.lookup(ArraySlice("or é".utf8)) == nil)
  }

  @Test func theKeptMultiplierGivesEveryKeywordASlotOfItsOwn() {
    // When a keyword added since shares a slot under it, the table searches on from it at start-up:
    // keep the multiplier it found instead.
    #expect(
      KeywordTable.shared.multiplier == KeywordTable.knownMultiplier,
      "set KeywordTable.knownMultiplier to \(String(KeywordTable.shared.multiplier, radix: 16))")
  }

  @Test func aWordFindsItsKeywordInAnyCaseAndNoLongerWordDoes() {
    // lexWord packs a word in one pass over its bytes, up to the longest keyword's length.
    #expect(KeywordTable.shared.longestWord == KeywordTable.longest)
    for keyword in Keyword.allCases {
      let word = keyword.rawValue
      let mixed = String(
        word.enumerated().map {
          $0.offset % 2 == 0 ? Character($0.element.uppercased()) : $0.element
        })
      for spelled in [word, word.uppercased(), mixed] {
        let tokens = Lexer.tokenize(Source(text: "\(spelled) \(spelled)x \(spelled)\n")).tokens
        #expect(tokens[0].keyword == keyword, "\(spelled)")
        #expect(tokens[1].keyword == nil, "\(spelled)x")
        #expect(tokens[2].keyword == keyword && tokens[2].end == tokens[3].start)
      }
    }
    let long = String(repeating: "a", count: KeywordTable.longest + 1)
    let words = Lexer.tokenize(Source(text: "\(long) \(long)\(long)x select")).tokens
    #expect(words.map(\.kind) == [.word, .word, .word, .endOfFile])
    #expect(words.map(\.keyword) == [nil, nil, .select, nil])
  }

  /// The quoted-string scan as it was written before it went over a buffer pointer: the token's
  /// end, its flags and whether it closed, for a string starting at `bytes[0]`.
  static func referenceQuoted(_ bytes: [UInt8]) -> (end: Int, flags: Token.Flags, closed: Bool) {
    let quote = bytes[0]
    let double = quote == UInt8(ascii: "\"")
    var flags: Token.Flags = []
    var cursor = 1
    while cursor < bytes.count {
      let byte = bytes[cursor]
      if byte == quote {
        if !double && cursor + 1 < bytes.count && bytes[cursor + 1] == quote {
          flags.insert(.hasEscapes)
          cursor += 2
          continue
        }
        return (cursor + 1, flags, true)
      }
      if byte == UInt8(ascii: "\n") { break }
      if double && byte == UInt8(ascii: "\\") {
        flags.insert(.hasEscapes)
        if cursor + 1 < bytes.count && bytes[cursor + 1] != UInt8(ascii: "\n") {
          cursor += 2
          continue
        }
      }
      if byte == UInt8(ascii: "$") { flags.insert(.hasDollar) }
      cursor += 1
    }
    var end = min(cursor, bytes.count)
    while end > 0 && bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
    return (end, [], false)
  }

  @Test func quotedStringsEndWhereTheyEndedBefore() {
    let bodies = [
      "", "a", "''", "a''b", "'''", "\\", "\\\"", "a\\", "\\\n", "$x", "${a}", "a$", "\r", "\r\n",
      "\n", "é산책 🐶", "\u{7f}\u{80}`", "_^]\\[", "\"'", "x\\'y",
    ]
    for quote in ["'", "\""] {
      for first in bodies {
        for second in bodies {
          for closing in ["", quote, quote + quote, quote + "x"] {
            LexerTests.expectQuotedAsBefore(quote + first + second + closing)
          }
        }
      }
    }
  }

  /// The scan goes eight bytes at a time: each byte it stops at (and bytes it must not stop at),
  /// at every place of a word and across two, with more or fewer than eight bytes after it.
  @Test func quotedStringsEndWhereTheyEndedBeforeAtEveryPlaceOfAWord() {
    let stops = ["'", "\"", "\\", "\\\"", "$", "\n", "''", "\r\n", "é", "🐶", "`", "#", "_"]
    for quote in ["'", "\""] {
      for stop in stops {
        for before in 0...17 {
          for after in [0, 1, 6, 7, 8, 9, 20] {
            let body =
              String(repeating: "7", count: before) + stop + String(repeating: "A-", count: after)
            for closing in ["", quote, quote + " from t"] {
              LexerTests.expectQuotedAsBefore(quote + body + closing)
            }
          }
        }
      }
    }
  }

  /// The first token of `text`, a string in quotes: its kind, end and flags as the reference scan
  /// finds them.
  static func expectQuotedAsBefore(_ text: String) {
    let quote = text.first == "'" ? "'" : "\""
    let token = Lexer.tokenize(Source(text: text)).tokens[0]
    let expected = LexerTests.referenceQuoted(Array(text.utf8))
    let kind: TokenKind =
      expected.closed
      ? (quote == "'" ? .singleQuoted : .doubleQuoted) : .unterminatedString
    #expect(token.kind == kind, "\(text.debugDescription)")
    #expect(token.end == expected.end, "\(text.debugDescription)")
    if expected.closed {
      #expect(
        token.flags.intersection([.hasEscapes, .hasDollar]) == expected.flags,
        "\(text.debugDescription)")
    }
  }

  struct ContinuationCase: Sendable, CustomTestStringConvertible {
    var input: String
    var needsMore: Bool
    var testDescription: String { input.debugDescription }
  }

  @Test(arguments: [
    ContinuationCase(input: "from user_info select *", needsMore: false),
    ContinuationCase(input: "from user_info insert {\"name\":", needsMore: true),
    ContinuationCase(input: "from user_info select * where id in (1,\n2", needsMore: true),
    ContinuationCase(input: "from user_info select * where id in (1,\n2)", needsMore: false),
    ContinuationCase(input: "from user_info select * \\", needsMore: true),
    ContinuationCase(input: "from user_info select * \\  ", needsMore: true),
    ContinuationCase(input: "from user_info select * \\\n", needsMore: true),
    ContinuationCase(input: "from user_info select * \\\nwhere a eq 1", needsMore: false),
    ContinuationCase(input: "from t select * where name eq '(", needsMore: false),
    ContinuationCase(input: "from t select * # (", needsMore: false),
    ContinuationCase(input: "from t insert {\"a\": 1}; from u select (", needsMore: true),
    ContinuationCase(input: "from t insert {\"a\": 1; from u select *", needsMore: false),
  ])
  func continuation(_ testCase: ContinuationCase) {
    #expect(Lexer.needsContinuation(testCase.input) == testCase.needsMore)
  }
}
