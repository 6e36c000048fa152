/// `storage buckets | create bucket | drop bucket | empty bucket | ls | upload | download | mv |
/// cp | rm | info | exists | sign | url`. The words after `storage` are matched as words (any
/// case), so they stay free as names everywhere else.
extension Parser {
  static let storageWords = [
    "buckets", "ls", "upload", "download", "info", "exists", "sign", "url", "mv", "cp", "rm",
    "create", "drop", "empty",
  ]

  mutating func parseStorage() throws(ParseFailure) -> StorageStatement {
    advance()  // storage
    recordKeywords(Self.storageWords)
    let word = current.kind == .word ? text(current).lowercased() : ""
    guard Self.storageWords.contains(word) else {
      throw expectedFailure(
        "a storage command (" + Self.storageWords.joined(separator: ", ") + ")", after: "'storage'",
        help: word.isEmpty ? nil : DidYouMean.help(word, among: Self.storageWords))
    }
    advance()
    switch word {
    case "buckets":
      return .buckets
    case "create":
      try expectWord("bucket", after: "'storage create'")
      let name = try parseStoragePath(
        .name(.bucket), what: "a bucket name", after: "'create bucket'")
      var isPublic = false
      var limit: ValueNode?
      var types: [ValueNode] = []
      while true {
        recordKeywords(["public", "limit", "types"])
        if eatWord("public") {
          isPublic = true
        } else if eatWord("limit") {
          limit = try parseStoragePath(.value, what: "a size such as 5MB", after: "'limit'")
        } else if eatWord("types") {
          repeat {
            types.append(try parseValue(after: "'types'", what: "a MIME type such as 'image/*'"))
          } while eat(.comma) != nil
        } else {
          break
        }
      }
      return .createBucket(name: name, isPublic: isPublic, limit: limit, types: types)
    case "drop", "empty":
      try expectWord("bucket", after: "'storage \(word)'")
      let name = try parseStoragePath(
        .name(.bucket), what: "a bucket name", after: "'\(word) bucket'")
      return word == "drop" ? .dropBucket(name) : .emptyBucket(name)
    case "ls":
      var listing = StorageListing(
        path: try parseStoragePath(
          .name(.storagePath), what: "a bucket or folder", after: "'storage ls'"))
      while true {
        recordKeywords(["limit", "offset", "search", "order"])
        if eatWord("limit") {
          listing.limit = try parseValue(after: "'limit'", what: "a number of entries")
        } else if eatWord("offset") {
          listing.offset = try parseValue(after: "'offset'", what: "a number of entries")
        } else if eatWord("search") {
          listing.search = try parseValue(after: "'search'", what: "the start of a name in quotes")
        } else if eatWord("order") {
          try expectWord("by", after: "'order'")
          recordKeywords(Self.storageSortColumns)
          let column = current.kind == .word ? text(current).lowercased() : ""
          guard Self.storageSortColumns.contains(column) else {
            throw expectedFailure(
              "name, updated_at, created_at or last_accessed_at", after: "'order by'",
              help: column.isEmpty ? nil : DidYouMean.help(column, among: Self.storageSortColumns))
          }
          advance()
          listing.sortColumn = column
          recordKeywords(["asc", "desc"])
          if eatWord("desc") {
            listing.descending = true
          } else {
            _ = eatWord("asc")
          }
        } else {
          return .list(listing)
        }
      }
    case "upload":
      let file = try parseStoragePath(
        .name(.localFile), what: "a file to upload", after: "'storage upload'")
      try expectWord("to", after: "the file")
      var upload = StorageUploadStatement(
        file: file,
        path: try parseStoragePath(.name(.storagePath), what: "a bucket/path", after: "'to'"))
      while true {
        recordKeywords(["type", "upsert", "cache"])
        if eatWord("type") {
          upload.contentType = try parseValue(after: "'type'", what: "a MIME type in quotes")
        } else if eatWord("upsert") {
          upload.upsert = true
        } else if eatWord("cache") {
          upload.cache = try parseValue(after: "'cache'", what: "seconds")
        } else {
          return .upload(upload)
        }
      }
    case "download":
      let path = try parseStoragePath(
        .name(.storagePath), what: "a bucket/path", after: "'storage download'")
      var destination: ValueNode?
      var isPublic = false
      while true {
        recordKeywords(["to", "public"])
        if eatWord("to") {
          destination = try parseStoragePath(
            .name(.localFile), what: "a file to write", after: "'to'")
        } else if eatWord("public") {
          isPublic = true
        } else {
          return .download(path: path, to: destination, isPublic: isPublic)
        }
      }
    case "mv", "cp":
      let from = try parseStoragePath(
        .name(.storagePath), what: "a bucket/path", after: "'storage \(word)'")
      try expectWord("to", after: "the path")
      let to = try parseStoragePath(.name(.storagePath), what: "a bucket/path", after: "'to'")
      return word == "mv" ? .move(from: from, to: to) : .copy(from: from, to: to)
    case "rm":
      var paths: [ValueNode] = []
      repeat {
        paths.append(
          try parseStoragePath(.name(.storagePath), what: "a bucket/path", after: "'storage rm'"))
      } while eat(.comma) != nil
      return .remove(paths)
    case "info", "exists":
      let path = try parseStoragePath(
        .name(.storagePath), what: "a bucket/path", after: "'storage \(word)'")
      return word == "info" ? .info(path) : .exists(path)
    case "sign":
      let path = try parseStoragePath(
        .name(.storagePath), what: "a bucket/path", after: "'storage sign'")
      try expectWord(
        "expires", after: "the path", help: "for example 'storage sign \(text(path)) expires 60'")
      let expires = try parseValue(after: "'expires'", what: "seconds")
      recordKeywords(["download"])
      return .sign(path: path, expires: expires, download: eatWord("download"))
    default:  // url
      let path = try parseStoragePath(
        .name(.storagePath), what: "a bucket/path", after: "'storage url'")
      recordKeywords(["download"])
      return .url(path: path, download: eatWord("download"))
    }
  }

  static let storageSortColumns = ["name", "updated_at", "created_at", "last_accessed_at"]

  /// Consumes the word `word` (any case) if it is next; recorded for completion.
  mutating func eatWord(_ word: String) -> Bool {
    record(.keyword(word))
    guard current.kind == .word, text(current).lowercased() == word else { return false }
    advance()
    return true
  }

  mutating func expectWord(_ word: String, after: String, help: String? = nil) throws(ParseFailure)
  {
    guard eatWord(word) else { throw expectedFailure("'\(word)'", after: after, help: help) }
  }

  /// The source text of a value node, for messages.
  func text(_ node: ValueNode) -> String { source.text(of: node.range) }

  /// A path, a name or a size: a string, a variable, or bare `[A-Za-z0-9._/-]` characters written
  /// together (`avatars/dogs/bori.jpg`, `dog-photos`, `5MB`), which becomes a string.
  mutating func parseStoragePath(_ item: ExpectedItem, what: String, after: String)
    throws(ParseFailure) -> ValueNode
  {
    record(item)
    switch current.kind {
    case .singleQuoted, .doubleQuoted, .variable:
      return try parseValue(after: after, what: what)
    default:
      break
    }
    guard !current.kind.isStatementEnd, current.kind != .comma, Self.isPathText(text(current))
    else {
      throw expectedFailure(
        what, after: after,
        help: "write names with other characters in quotes: 'my dog.jpg'")
    }
    let start = current.start
    var end = current.end
    advance()
    while !current.kind.isStatementEnd, current.kind != .comma, current.start == end,
      Self.isPathText(text(current))
    {
      end = current.end
      advance()
    }
    let range = SourceRange(start: start, end: end)
    if current.start == end, current.kind == .variable || current.kind == .invalid,
      text(current).hasPrefix("$")
    {
      let variable = text(current)
      let written = source.text(of: range) + "${" + variable.dropFirst() + "}"
      throw failure(
        .unexpectedAfterStatement(describe(current)), at: current.range,
        help: "fill variables into a path in double quotes: \"\(written)\"")
    }
    return ValueNode(
      .string(StringLiteral(parts: [.text(source.text(of: range))])), range: range)
  }

  /// Whether `text` is all `A-Z a-z 0-9 . _ / -`.
  static func isPathText(_ text: String) -> Bool {
    isASCIIWord(text, also: "._/-")
  }
}
