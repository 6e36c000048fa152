/// `invoke <function> [<method>] [<body>] [header <name> <value>]... [> '<file>']` and
/// `request <method> '<path>' [body <body>] [header <name> <value>]... [> '<file>']`. The words are matched as
/// words (any case), so they stay free as names everywhere else.
/// A value type of its own over the ``Parser``'s cursor: each function takes the parser `inout`
/// (as ``RealtimeStatementParser``'s do), so its tokens are never copied.
enum FunctionsStatementParser {
  static let words = ["invoke", "request"]

  static let httpMethods = ["get", "post", "put", "patch", "delete", "head", "options"]

  /// Whether `token` is `invoke` or `request` (a statement `explain` shows too).
  static func starts(_ parser: Parser, _ token: Token) -> Bool {
    token.kind == .word && Self.words.contains(parser.text(token).lowercased())
  }

  static func parse(_ parser: inout Parser) throws(ParseFailure) -> FunctionsStatement {
    let word = parser.text(parser.current).lowercased()
    parser.advance()
    if word == "invoke" {
      let function = try StorageStatementParser.parsePath(
        &parser,
        .value, what: "a function name such as hello or reports/daily", after: "'invoke'")
      var call = FunctionCall(function: function)
      parser.recordKeywords(Self.httpMethods)
      if parser.current.kind == .word,
        Self.httpMethods.contains(parser.text(parser.current).lowercased())
      {
        call.method = parser.text(parser.current).uppercased()
        parser.advance()
      }
      call.body = try parseRequestBody(&parser, after: "the function", needsWord: false)
      call.headers = try parseRequestHeaders(&parser)
      call.outputFile = try parseAnswerFile(&parser)
      return .invoke(call)
    }
    parser.recordKeywords(Self.httpMethods)
    guard parser.current.kind == .word,
      Self.httpMethods.contains(parser.text(parser.current).lowercased())
    else {
      throw parser.expectedFailure(
        "a method (" + Self.httpMethods.joined(separator: ", ") + ")", after: "'request'",
        help: "for example request get '/rest/v1/dog_profile?select=id'")
    }
    let method = parser.text(parser.current).uppercased()
    parser.advance()
    guard
      parser.current.kind.isQuoted
        || parser.current.kind == .variable
    else {
      throw parser.expectedFailure(
        "a path in quotes under the project's URL", after: "'request \(method.lowercased())'",
        help: "for example request \(method.lowercased()) '/rest/v1/dog_profile?select=id'")
    }
    let path = try ValueParser.parse(
      &parser, after: "'request \(method.lowercased())'", what: "a path")
    var request = RawRequest(method: method, path: path)
    request.body = try parseRequestBody(&parser, after: "the path", needsWord: true)
    request.headers = try parseRequestHeaders(&parser)
    request.outputFile = try parseAnswerFile(&parser)
    return .request(request)
  }

  /// `> '<file>'` at the end, or nil.
  static func parseAnswerFile(_ parser: inout Parser) throws(ParseFailure) -> OutputFile? {
    var modifiers = Modifiers()
    guard try ScriptStatementParser.parseOutputFile(&parser, into: &modifiers) else { return nil }
    return modifiers.rare?.outputFile
  }

  /// `file '<path>'`, a value (`{...}`, `[...]`, `'text'`, `$name`), or nothing; after `body`
  /// when `needsWord`.
  static func parseRequestBody(_ parser: inout Parser, after: String, needsWord: Bool)
    throws(ParseFailure)
    -> RequestBody?
  {
    if needsWord {
      guard parser.eatWord("body") else { return nil }
    }
    let where_ = needsWord ? "'body'" : after
    if parser.eatWord("file") {
      return .file(
        try StorageStatementParser.parsePath(
          &parser, .name(.localFile), what: "a file to send", after: "'file'"))
    }
    parser.record(.symbol(.leftBrace))
    switch parser.current.kind {
    case .leftBrace, .leftBracket, .singleQuoted, .doubleQuoted, .variable:
      return .value(try ValueParser.parse(&parser, after: where_, what: "a body"))
    default:
      if needsWord {
        throw parser.expectedFailure(
          "a body: {json}, [json], 'text' or file '<path>'", after: "'body'", help: nil)
      }
      return nil
    }
  }

  /// `header <name> <value>`, repeated.
  static func parseRequestHeaders(_ parser: inout Parser) throws(ParseFailure) -> [RequestHeader] {
    var headers: [RequestHeader] = []
    while parser.eatWord("header") {
      let name = try StorageStatementParser.parsePath(
        &parser,
        .value, what: "a header name such as x-region", after: "'header'")
      let value = try ValueParser.parse(
        &parser,
        after: "the header name", what: "the header's value in quotes")
      headers.append(RequestHeader(name: name, value: value))
    }
    return headers
  }
}
