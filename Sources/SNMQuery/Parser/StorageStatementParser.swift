/// `storage buckets | create bucket | drop bucket | empty bucket | ls | upload | download | mv |
/// cp | rm | info | exists | sign | url`. The words after `storage` are matched as words (any
/// case), so they stay free as names everywhere else.
/// A value type of its own over the ``Parser``'s cursor: each function takes the parser `inout`
/// (as ``RealtimeStatementParser``'s do), so its tokens are never copied.
enum StorageStatementParser {
  static let words = [
    "buckets", "ls", "upload", "download", "info", "exists", "sign", "url", "mv", "cp", "rm",
    "create", "drop", "empty",
  ]

  static func parse(_ parser: inout Parser) throws(ParseFailure) -> StorageStatement {
    parser.advance()  // storage
    parser.recordKeywords(Self.words)
    let word = parser.current.kind == .word ? parser.text(parser.current).lowercased() : ""
    guard Self.words.contains(word) else {
      throw parser.expectedFailure(
        "a storage command (" + Self.words.joined(separator: ", ") + ")", after: "'storage'",
        help: word.isEmpty ? nil : DidYouMean.help(word, among: Self.words))
    }
    parser.advance()
    switch word {
    case "buckets":
      return .buckets
    case "create":
      try parser.expectWord("bucket", after: "'storage create'")
      let name = try parsePath(
        &parser,
        .name(.bucket), what: "a bucket name", after: "'create bucket'")
      var isPublic = false
      var limit: ValueNode?
      var types: [ValueNode] = []
      while true {
        parser.recordKeywords(["public", "limit", "types"])
        if parser.eatWord("public") {
          isPublic = true
        } else if parser.eatWord("limit") {
          limit = try parsePath(&parser, .value, what: "a size such as 5MB", after: "'limit'")
        } else if parser.eatWord("types") {
          repeat {
            types.append(
              try ValueParser.parse(
                &parser, after: "'types'", what: "a MIME type such as 'image/*'"))
          } while parser.eat(.comma) != nil
        } else {
          break
        }
      }
      return .createBucket(name: name, isPublic: isPublic, limit: limit, types: types)
    case "drop", "empty":
      try parser.expectWord("bucket", after: "'storage \(word)'")
      let name = try parsePath(
        &parser,
        .name(.bucket), what: "a bucket name", after: "'\(word) bucket'")
      return word == "drop" ? .dropBucket(name) : .emptyBucket(name)
    case "ls":
      var listing = StorageListing(
        path: try parsePath(
          &parser,
          .name(.storagePath), what: "a bucket or folder", after: "'storage ls'"))
      while true {
        parser.recordKeywords(["limit", "offset", "search", "order"])
        if parser.eatWord("limit") {
          listing.limit = try ValueParser.parse(
            &parser, after: "'limit'", what: "a number of entries")
        } else if parser.eatWord("offset") {
          listing.offset = try ValueParser.parse(
            &parser, after: "'offset'", what: "a number of entries")
        } else if parser.eatWord("search") {
          listing.search = try ValueParser.parse(
            &parser,
            after: "'search'", what: "the start of a name in quotes")
        } else if parser.eatWord("order") {
          try parser.expectWord("by", after: "'order'")
          parser.recordKeywords(Self.sortColumns)
          let column = parser.current.kind == .word ? parser.text(parser.current).lowercased() : ""
          guard Self.sortColumns.contains(column) else {
            throw parser.expectedFailure(
              "name, updated_at, created_at or last_accessed_at", after: "'order by'",
              help: column.isEmpty ? nil : DidYouMean.help(column, among: Self.sortColumns))
          }
          parser.advance()
          listing.sortColumn = column
          parser.recordKeywords(["asc", "desc"])
          if parser.eatWord("desc") {
            listing.descending = true
          } else {
            _ = parser.eatWord("asc")
          }
        } else {
          return .list(listing)
        }
      }
    case "upload":
      let file = try parsePath(
        &parser,
        .name(.localFile), what: "a file to upload", after: "'storage upload'")
      try parser.expectWord("to", after: "the file")
      var upload = StorageUploadStatement(
        file: file,
        path: try parsePath(&parser, .name(.storagePath), what: "a bucket/path", after: "'to'"))
      while true {
        parser.recordKeywords(["type", "upsert", "cache"])
        if parser.eatWord("type") {
          upload.contentType = try ValueParser.parse(
            &parser, after: "'type'", what: "a MIME type in quotes")
        } else if parser.eatWord("upsert") {
          upload.upsert = true
        } else if parser.eatWord("cache") {
          upload.cache = try ValueParser.parse(&parser, after: "'cache'", what: "seconds")
        } else {
          return .upload(upload)
        }
      }
    case "download":
      let path = try parsePath(
        &parser,
        .name(.storagePath), what: "a bucket/path", after: "'storage download'")
      var destination: ValueNode?
      var isPublic = false
      while true {
        parser.recordKeywords(["to", "public"])
        if parser.eatWord("to") {
          destination = try parsePath(
            &parser,
            .name(.localFile), what: "a file to write", after: "'to'")
        } else if parser.eatWord("public") {
          isPublic = true
        } else {
          return .download(path: path, to: destination, isPublic: isPublic)
        }
      }
    case "mv", "cp":
      let from = try parsePath(
        &parser,
        .name(.storagePath), what: "a bucket/path", after: "'storage \(word)'")
      try parser.expectWord("to", after: "the path")
      let to = try parsePath(&parser, .name(.storagePath), what: "a bucket/path", after: "'to'")
      return word == "mv" ? .move(from: from, to: to) : .copy(from: from, to: to)
    case "rm":
      var paths: [ValueNode] = []
      repeat {
        paths.append(
          try parsePath(&parser, .name(.storagePath), what: "a bucket/path", after: "'storage rm'"))
      } while parser.eat(.comma) != nil
      return .remove(paths)
    case "info", "exists":
      let path = try parsePath(
        &parser,
        .name(.storagePath), what: "a bucket/path", after: "'storage \(word)'")
      return word == "info" ? .info(path) : .exists(path)
    case "sign":
      let path = try parsePath(
        &parser,
        .name(.storagePath), what: "a bucket/path", after: "'storage sign'")
      try parser.expectWord(
        "expires", after: "the path",
        help: "for example 'storage sign \(parser.source.text(of: path.range)) expires 60'")
      let expires = try ValueParser.parse(&parser, after: "'expires'", what: "seconds")
      parser.recordKeywords(["download"])
      return .sign(path: path, expires: expires, download: parser.eatWord("download"))
    default:  // url
      let path = try parsePath(
        &parser,
        .name(.storagePath), what: "a bucket/path", after: "'storage url'")
      parser.recordKeywords(["download"])
      return .url(path: path, download: parser.eatWord("download"))
    }
  }

  static let sortColumns = ["name", "updated_at", "created_at", "last_accessed_at"]

  /// A path, a name or a size: a string, a variable, or bare `[A-Za-z0-9._/-]` characters written
  /// together (`avatars/dogs/bori.jpg`, `dog-photos`, `5MB`), which becomes a string.
  static func parsePath(_ parser: inout Parser, _ item: ExpectedItem, what: String, after: String)
    throws(ParseFailure) -> ValueNode
  {
    parser.record(item)
    switch parser.current.kind {
    case .singleQuoted, .doubleQuoted, .variable:
      return try ValueParser.parse(&parser, after: after, what: what)
    default:
      break
    }
    guard !parser.current.kind.isStatementEnd, parser.current.kind != .comma,
      Self.isPathText(parser.text(parser.current))
    else {
      throw parser.expectedFailure(
        what, after: after,
        help: "write names with other characters in quotes: 'my dog.jpg'")
    }
    let start = parser.current.start
    var end = parser.current.end
    parser.advance()
    while !parser.current.kind.isStatementEnd, parser.current.kind != .comma,
      parser.current.start == end,
      Self.isPathText(parser.text(parser.current))
    {
      end = parser.current.end
      parser.advance()
    }
    let range = SourceRange(start: start, end: end)
    if parser.current.start == end,
      parser.current.kind == .variable || parser.current.kind == .invalid,
      parser.text(parser.current).hasPrefix("$")
    {
      let variable = parser.text(parser.current)
      let written = parser.source.text(of: range) + "${" + variable.dropFirst() + "}"
      throw parser.failure(
        .unexpectedAfterStatement(parser.describe(parser.current)), at: parser.current.range,
        help: "fill variables into a path in double quotes: \"\(written)\"")
    }
    return ValueNode(
      .string(StringLiteral(parts: [.text(parser.source.text(of: range))])), range: range)
  }

  /// Whether `text` is all `A-Z a-z 0-9 . _ / -`.
  static func isPathText(_ text: String) -> Bool {
    Parser.isASCIIWord(text, also: "._/-")
  }
}
