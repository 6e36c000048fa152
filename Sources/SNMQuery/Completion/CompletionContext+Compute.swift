extension CompletionContext {
  /// The completion context at UTF-8 `offset` in `text`.
  public static func at(offset: Int, in text: String) -> CompletionContext {
    let bytes = Array(text.utf8)
    let offset = min(max(offset, 0), bytes.count)
    var wordStart = offset
    while wordStart > 0 && (isNameByte(bytes[wordStart - 1]) || bytes[wordStart - 1] >= 0x80) {
      wordStart -= 1
    }
    var spanStart = offset
    while spanStart > 0 {
      let byte = bytes[spanStart - 1]
      guard
        isNameByte(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "[")
          || byte == UInt8(ascii: "]") || byte == UInt8(ascii: "{")
      else { break }
      spanStart -= 1
    }
    if let dollar = bytes[spanStart..<offset].lastIndex(of: UInt8(ascii: "$")) {
      var context = CompletionContext(
        prefix: String(decoding: bytes[dollar..<offset], as: UTF8.self),
        replaceRange: SourceRange(start: dollar, end: offset))
      context.variables = true
      return context
    }
    if wordStart > 0 && bytes[wordStart - 1] == UInt8(ascii: "\\") {
      wordStart -= 1
    }
    if let storage = storageContext(bytes: bytes, offset: offset, wordStart: wordStart) {
      return storage
    }
    let range = SourceRange(start: wordStart, end: offset)
    var context = CompletionContext(
      prefix: String(decoding: bytes[wordStart..<offset], as: UTF8.self), replaceRange: range)
    let before = String(decoding: bytes[0..<wordStart], as: UTF8.self)
    let expected = Parser.expectations(atEndOf: before)
    context.fill(from: expected)
    return context
  }

  mutating func fill(from expected: [ExpectedItem]) {
    for item in expected {
      switch item {
      case .keyword(let word):
        if !keywords.contains(word) { keywords.append(word) }
        if FilterOperator.words.contains(word) { operators = true }
      case .symbol(let kind):
        if let op = FilterOperator(symbol: kind), kind != .doubleEqual {
          operators = true
          let spelling = String(kind.spelling.dropFirst().dropLast())
          if !symbols.contains(spelling) { symbols.append(spelling) }
          _ = op
        } else if kind == .star || kind == .backslashCommand {
          let spelling = kind == .star ? "*" : "\\"
          if !symbols.contains(spelling) { symbols.append(spelling) }
        } else if kind == .variable {
          variables = true
        }
      case .name(let role):
        switch role {
        case .table: tables = true
        case .function: functions = true
        case .column(let table):
          if let table, !columnsOf.contains(table) { columnsOf.append(table) }
        case .relation(let table):
          if let table, !relationsOf.contains(table) { relationsOf.append(table) }
        case .file: files = true
        case .bucket: buckets = true
        case .storagePath: storagePaths = true
        case .localFile: localFiles = true
        case .newVariable, .type, .config: break
        }
      case .value:
        variables = true
      }
    }
    if operators {
      for symbol in ["=", "!=", "<>", ">", ">=", "<", "<=", "~", "~*"]
      where !symbols.contains(symbol) {
        symbols.append(symbol)
      }
    }
  }
}

extension CompletionContext {
  /// The context inside a bare path (`storage ls avatars/do`, `run scripts/smoke/0`): the whole
  /// path so far is the prefix, when the parser takes a path where it starts. Nil elsewhere.
  static func storageContext(bytes: [UInt8], offset: Int, wordStart: Int) -> CompletionContext? {
    var pathStart = offset
    while pathStart > 0,
      StorageStatementParser.isPathText(String(decoding: [bytes[pathStart - 1]], as: UTF8.self))
    {
      pathStart -= 1
    }
    guard pathStart < wordStart || bytes[pathStart..<offset].contains(UInt8(ascii: "/")) else {
      return nil
    }
    let expected = Parser.expectations(
      atEndOf: String(decoding: bytes[0..<pathStart], as: UTF8.self))
    var context = CompletionContext(
      prefix: String(decoding: bytes[pathStart..<offset], as: UTF8.self),
      replaceRange: SourceRange(start: pathStart, end: offset))
    for case .name(let role) in expected {
      switch role {
      case .bucket: context.buckets = true
      case .storagePath: context.storagePaths = true
      case .localFile: context.localFiles = true
      case .file: context.files = true
      default: break
      }
    }
    return context.buckets || context.storagePaths || context.localFiles || context.files
      ? context : nil
  }
}

extension Parser {
  /// What the parser would accept right after `text` (which ends where the cursor's word starts).
  static func expectations(atEndOf text: String) -> [ExpectedItem] {
    let source = Source(text: text)
    let tokens = Lexer.tokenize(source).tokens
    var parser = Parser(source: source, tokens: tokens)
    parser.cursorToken = tokens.count - 1
    parser.parseScript()
    return parser.expected
  }
}
