import Foundation
import SNMQuery

/// Tab at the prompt: asks the language what fits at the cursor and fills in the names the
/// project has.
///
/// ```swift
/// let completer = ShellCompleter(catalog: catalog, variables: { shell.variableNames() })
/// completer.complete("from us")                  // word "us", candidates ["user_info"]
/// completer.complete("from user_info select ")   // its columns
/// ```
/// Keywords where a keyword fits, tables after `from`, functions after `rpc`, columns of the
/// statement's table in select lists, filters and `order by`, operators after a column, `$variables`
/// after `$`, `.snm` files after `run`. Names come from the `SchemaCatalog`: where they are
/// wanted, Tab starts its load if nothing has, and while no document is there yet (none cached,
/// the project's not yet answered) waits for it, until it ends or a key is typed (`keyTyped`),
/// rather than offer fewer names than the project has without saying so.
public struct ShellCompleter: LineCompleter {
  let catalog: SchemaCatalog
  let variables: @Sendable () -> [String]
  let directory: String
  /// Whether a key waits to be read: Tab stops waiting for the project's names then.
  let keyTyped: @Sendable () -> Bool

  public init(
    catalog: SchemaCatalog, variables: @escaping @Sendable () -> [String] = { [] },
    directory: String = FileManager.default.currentDirectoryPath,
    keyTyped: @escaping @Sendable () -> Bool = { ShellCompleter.keyWaitsOnStandardInput() }
  ) {
    self.catalog = catalog
    self.variables = variables
    self.directory = directory
    self.keyTyped = keyTyped
  }

  /// Whether a key typed at the terminal waits to be read on standard input.
  public static func keyWaitsOnStandardInput() -> Bool {
    var input = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
    return poll(&input, 1, 0) > 0 && input.revents & Int16(POLLIN) != 0
  }

  /// Words that start a statement: offered only where a statement starts.
  static let statementKeywords: Set<String> = [
    "from", "rpc", "storage", "login", "signup", "session", "logout", "let", "expect", "echo",
    "run", "help", "tables", "describe", "explain", "set", "exit", "quit", "invoke", "request",
  ]

  public func complete(_ text: String) -> CompletionResult {
    let context = CompletionContext.at(offset: text.utf8.count, in: text)
    let word = context.prefix
    let before = String(decoding: Array(text.utf8)[..<context.replaceRange.start], as: UTF8.self)
    let atStart = Self.isStatementStart(before)
    if context.tables || context.functions || context.operators || !context.columnsOf.isEmpty
      || !context.relationsOf.isEmpty
    {
      awaitProjectNames()
    } else if context.buckets || context.storagePaths {
      catalog.loadIfNotStarted()
    }
    var names: [String] = []
    if context.variables {
      names += variables().sorted().map { "$" + $0 } + ["$env.", "$session."]
    }
    if context.tables { names += catalog.tableNames().map(Self.quoted) }
    if context.functions { names += catalog.functionNames().map(Self.quoted) }
    if context.symbols.contains("*") { names.append("*") }  // every column, in a select list
    for table in context.columnsOf { names += catalog.columns(of: table).map(Self.quoted) }
    for table in context.relationsOf { names += catalog.relations(of: table).map(Self.quoted) }
    if context.files { names += files(matching: word) }
    if context.buckets { names += catalog.storage.candidates(for: word, bucketsOnly: true) }
    if context.storagePaths { names += catalog.storage.candidates(for: word) }
    if context.localFiles { names += localFiles(matching: word) }
    var keywords = context.keywords.filter { atStart || !Self.statementKeywords.contains($0) }
    if word.contains(where: \.isUppercase) && word == word.uppercased() {
      keywords = keywords.map { $0.uppercased() }
    }
    var candidates = names + keywords
    if context.operators && word.isEmpty { candidates += context.symbols.filter { $0 != "\\" } }
    if atStart && (word.isEmpty || word.hasPrefix("\\")) {
      candidates += ShellStatementParser.backslashCommands
    }
    if context.operators, let fitting = fittingOperators(before: before) {
      candidates = candidates.filter { candidate in
        FilterOperator.spelled(candidate.lowercased()).map(fitting.contains) ?? true
      }
    }
    let lowered = word.lowercased()
    var seen = Set<String>()
    let matching = candidates.filter { candidate in
      candidate.lowercased().hasPrefix(lowered) && seen.insert(candidate).inserted
    }
    if matching.isEmpty && lowered.count >= 2 {
      // Nothing starts so: the names holding the typed letters in order (pgcli's fuzzy match),
      // those where they sit closest together first.
      var fuzzy = Set<String>()
      let close = names.compactMap { name in
        Self.spread(of: lowered, in: name.lowercased()).map { (name, $0) }
      }
      return CompletionResult(
        word: word,
        candidates: close.sorted { ($0.1, $0.0) < ($1.1, $1.0) }.map(\.0).filter {
          fuzzy.insert($0).inserted
        })
    }
    return CompletionResult(word: word, candidates: matching)
  }

  /// Starts loading the project's names if nothing has, and waits while no document is there.
  func awaitProjectNames() {
    catalog.loadIfNotStarted()
    if catalog.isAwaitingDocument { _ = catalog.waitUntilSettled(unless: keyTyped) }
  }

  /// How far apart the letters of `typed` sit, in order, in `name` (nil: they are not all
  /// there in order): `dgprf` in `dog_profile` spreads over 8 characters.
  static func spread(of typed: String, in name: String) -> Int? {
    var first: String.Index?
    var cursor = name.startIndex
    for character in typed {
      guard let found = name[cursor...].firstIndex(of: character) else { return nil }
      if first == nil { first = found }
      cursor = name.index(after: found)
    }
    guard let first else { return nil }
    return name.distance(from: first, to: cursor)
  }

  /// The operators that fit the column the cursor follows (`from user_info select * where age `:
  /// an integer's), or nil when its type is not known (every operator is offered).
  func fittingOperators(before: String) -> Set<FilterOperator>? {
    let source = Source(text: before)
    let tokens = Lexer.tokenize(source).tokens.dropLast()
    guard let last = tokens.last, last.kind == .word || last.kind == .doubleQuoted,
      let from = tokens.lastIndex(where: { $0.keyword == .from }), from + 1 < tokens.count - 1
    else { return nil }
    let previous = tokens[tokens.count - 2]
    if previous.end == last.start && previous.kind == .dot { return nil }  // an embedded column
    let table = Self.unquoted(source.text(of: tokens[from + 1].range))
    let column = Self.unquoted(source.text(of: last.range))
    return catalog.columnType(of: column, in: table).flatMap(FilterOperator.fitting(type:))
  }

  static func unquoted(_ name: String) -> String {
    guard name.count >= 2, name.hasPrefix("\""), name.hasSuffix("\"") else { return name }
    return String(name.dropFirst().dropLast())
  }

  /// Whether a statement starts after `before`: nothing, or only a finished statement and `;`.
  static func isStatementStart(_ before: String) -> Bool {
    let trimmed = before.trimmingCharacters(in: .whitespaces)
    if trimmed.isEmpty || trimmed.hasSuffix(";") { return true }
    // A new line starts a statement unless a bracket or a trailing `\` continues it.
    guard let lastLine = before.split(separator: "\n", omittingEmptySubsequences: false).last
    else { return true }
    return lastLine.allSatisfy(\.isWhitespace) && !Lexer.needsContinuation(before)
  }

  /// A name as the language needs it written: bare when it is `[A-Za-z_][A-Za-z0-9_$]*`.
  static func quoted(_ name: String) -> String {
    let plain =
      name.first.map { $0 == "_" || ($0.isASCII && $0.isLetter) } == true
      && name.allSatisfy { $0 == "_" || $0 == "$" || ($0.isASCII && ($0.isLetter || $0.isNumber)) }
    return plain ? name : "\"" + name.replacingOccurrences(of: "\"", with: "\\\"") + "\""
  }

  /// `.snm` files and directories for `run` / `\i`, relative to the working directory.
  func files(matching word: String) -> [String] {
    files(matching: word, keep: { $0.hasSuffix(".snm") })
  }

  /// Any file or folder (for `storage upload <file>`, `download ... to <file>`).
  func localFiles(matching word: String) -> [String] {
    files(matching: word, keep: { _ in true })
  }

  /// The folders, and the files `keep` takes, of the folder `word` has typed so far.
  func files(matching word: String, keep: (String) -> Bool) -> [String] {
    let slash = word.lastIndex(of: "/")
    let folder = slash.map { String(word[...$0]) } ?? ""
    let path = folder.hasPrefix("/") ? folder : directory + "/" + folder
    guard let entries = try? FileManager.default.contentsOfDirectory(atPath: path) else {
      return []
    }
    return entries.sorted().compactMap { entry in
      if entry.hasPrefix(".") { return nil }
      var isDirectory: ObjCBool = false
      let exists = FileManager.default.fileExists(
        atPath: path + "/" + entry, isDirectory: &isDirectory)
      if exists && isDirectory.boolValue { return folder + entry + "/" }
      return keep(entry) ? folder + entry : nil
    }
  }
}
