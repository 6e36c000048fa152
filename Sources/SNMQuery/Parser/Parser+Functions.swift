/// `invoke <function> [<method>] [<body>] [header <name> <value>]... [> '<file>']` and
/// `request <method> '<path>' [body <body>] [header <name> <value>]... [> '<file>']`. The words are matched as
/// words (any case), so they stay free as names everywhere else.
extension Parser {
  static let functionsWords = ["invoke", "request"]

  static let httpMethods = ["get", "post", "put", "patch", "delete", "head", "options"]

  mutating func parseFunctionsStatement() throws(ParseFailure) -> FunctionsStatement {
    let word = text(current).lowercased()
    advance()
    if word == "invoke" {
      let function = try parseStoragePath(
        .value, what: "a function name such as hello or reports/daily", after: "'invoke'")
      var call = FunctionCall(function: function)
      recordKeywords(Self.httpMethods)
      if current.kind == .word, Self.httpMethods.contains(text(current).lowercased()) {
        call.method = text(current).uppercased()
        advance()
      }
      call.body = try parseRequestBody(after: "the function", needsWord: false)
      call.headers = try parseRequestHeaders()
      call.outputFile = try parseAnswerFile()
      return .invoke(call)
    }
    recordKeywords(Self.httpMethods)
    guard current.kind == .word, Self.httpMethods.contains(text(current).lowercased()) else {
      throw expectedFailure(
        "a method (" + Self.httpMethods.joined(separator: ", ") + ")", after: "'request'",
        help: "for example request get '/rest/v1/dog_profile?select=id'")
    }
    let method = text(current).uppercased()
    advance()
    guard
      current.kind.isQuoted
        || current.kind == .variable
    else {
      throw expectedFailure(
        "a path in quotes under the project's URL", after: "'request \(method.lowercased())'",
        help: "for example request \(method.lowercased()) '/rest/v1/dog_profile?select=id'")
    }
    let path = try parseValue(after: "'request \(method.lowercased())'", what: "a path")
    var request = RawRequest(method: method, path: path)
    request.body = try parseRequestBody(after: "the path", needsWord: true)
    request.headers = try parseRequestHeaders()
    request.outputFile = try parseAnswerFile()
    return .request(request)
  }

  /// `> '<file>'` at the end, or nil.
  mutating func parseAnswerFile() throws(ParseFailure) -> OutputFile? {
    var modifiers = Modifiers()
    guard try parseOutputFile(into: &modifiers) else { return nil }
    return modifiers.rare?.outputFile
  }

  /// `file '<path>'`, a value (`{...}`, `[...]`, `'text'`, `$name`), or nothing; after `body`
  /// when `needsWord`.
  mutating func parseRequestBody(after: String, needsWord: Bool) throws(ParseFailure)
    -> RequestBody?
  {
    if needsWord {
      guard eatWord("body") else { return nil }
    }
    let where_ = needsWord ? "'body'" : after
    if eatWord("file") {
      return .file(
        try parseStoragePath(.name(.localFile), what: "a file to send", after: "'file'"))
    }
    record(.symbol(.leftBrace))
    switch current.kind {
    case .leftBrace, .leftBracket, .singleQuoted, .doubleQuoted, .variable:
      return .value(try parseValue(after: where_, what: "a body"))
    default:
      if needsWord {
        throw expectedFailure(
          "a body: {json}, [json], 'text' or file '<path>'", after: "'body'", help: nil)
      }
      return nil
    }
  }

  /// `header <name> <value>`, repeated.
  mutating func parseRequestHeaders() throws(ParseFailure) -> [RequestHeader] {
    var headers: [RequestHeader] = []
    while eatWord("header") {
      let name = try parseStoragePath(
        .value, what: "a header name such as x-region", after: "'header'")
      let value = try parseValue(after: "the header name", what: "the header's value in quotes")
      headers.append(RequestHeader(name: name, value: value))
    }
    return headers
  }
}
