import Testing

@testable import SNMQuery

/// The lexer a statement at a time, and the parser over that window, see exactly what they saw
/// with every token of the script at hand: the same tokens, statements and diagnostics.
@Suite struct TokenWindowTests {
  static let scripts: [String] = [
    "from t select *\nfrom u select a, b where a eq 1; rpc f {\"a\": [1,\n 2]}\n",
    "let a = 1 \\\n  \nlet b = 2\\",
    "from t insert {\"a\":\nfrom u select *\nlet x = 1\n",
    "from t select ( a\nfrom u select *; let y = 'é🐶' from\n\n\n",
    "help where $\nfrom t select * where a >=\nfrom t select",
    "from t select *)]}\nlet z = 'unterminated\n-- a comment\n# another\nexit",
    ";;\n;\n",
    "",
    "rpc f {\n",
  ]

  @Test(arguments: scripts)
  func theLexerAStatementAtATimeGivesEveryToken(_ text: String) {
    let source = Source(text: text)
    var lexer = Lexer(bytes: source.bytes, reserving: false)
    var windows: [[Token]] = []
    while !lexer.isFinished {
      lexer.tokens.removeAll()
      lexer.lexStatement()
      windows.append(lexer.tokens)
      let ends = lexer.tokens.filter { $0.kind.isStatementEnd }
      #expect(ends.count == 1 && lexer.tokens.last?.kind.isStatementEnd == true)
    }
    #expect(windows.flatMap { $0 } == Lexer.tokenize(source).tokens)
  }

  @Test(arguments: scripts)
  func theParserOverTheWindowParsesAsOverEveryToken(_ text: String) {
    let source = Source(text: text)
    var windowed = Parser(source)
    var whole = Parser(source: source, tokens: Lexer.tokenize(source).tokens)
    while true {
      let statement = windowed.nextStatement()
      #expect(statement == whole.nextStatement())
      if statement == nil { break }
    }
    #expect(windowed.parseDiagnostics == whole.parseDiagnostics)
    #expect(Array(ParsedStatements(source)) == Parser.parse(source).statements)
  }

  /// A parser from a statement's end (``Parser/init(_:from:)``: the rest of a file after a `run`)
  /// gives the statements and diagnostics the whole script's parse gives after that point, at
  /// the same offsets; the text before it is not read.
  @Test(arguments: [
    "from t select *\nfrom u select a, b where a eq 1; rpc f {\"a\": [1,\n 2]}\n",
    "let a = 1 \\\n  \nlet b = 2\\",
    "help where $\nfrom t select * where a >=\nfrom t select",
    "run gen.snm\necho 'after'  # a comment\nfrom\necho '$made $mdae'\n",
  ])
  func theParserFromAStatementsEndParsesTheRestAsTheWholeDoes(_ text: String) {
    let source = Source(text: text)
    let whole = Parser.parse(source)
    for end in whole.statements.map(\.range.end) {
      var rest = Parser(source, from: end)
      var statements: [Statement] = []
      while let statement = rest.nextStatement() { statements.append(statement) }
      #expect(statements == whole.statements.filter { $0.range.start >= end }, "from \(end)")
      #expect(
        rest.parseDiagnostics == whole.diagnostics.filter { $0.range.start >= end },
        "from \(end)")
    }
    // The text before is not read: a bracket left open there leaves the rest as it is.
    let open = Source(text: "echo [1,\n" + text)
    var rest = Parser(open, from: 9)
    #expect(rest.nextStatement()?.range.start == whole.statements.first.map { $0.range.start + 9 })
  }
}
