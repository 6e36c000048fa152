import SNMQuery
import SNMSupabase

/// Checks a script without a network: parse errors, the checker's rules, and every file its `run`
/// statements name (recursively), with the variables bound before each `run`.
///
/// ```swift
/// let check = ScriptCheck.check(file: try loader.load(path), variables: ["n"], loader: loader)
/// if check.hasErrors { print(check.rendered(colored: false)) }   // nothing may run
/// ```
/// A `run` of a file that cannot be read, or one that would run a file already running (`a.snm ->
/// b.snm -> a.snm`), is an error at the `run` statement; in a script about to run, a file that
/// does not exist yet is checked when its `run` runs. `snm check` (nothing runs) says so in a
/// warning when a statement before the `run` writes the file (``WrittenFiles``: `\o gen.snm`, in
/// this file, a file it ran, or a file checked before it), else it is an error.
public struct ScriptCheck: Sendable {
  /// Diagnostics by source, in the order the files were reached.
  public var findings: [(source: Source, diagnostics: [Diagnostic])] = []
  /// The script with the statements that had errors left out.
  public var script: ParsedScript
  /// The variables bound before it (`--var`, earlier statements), handed to each checker as
  /// they are (never copied: standard input checks a statement at a time).
  private var known: Set<String>
  /// The variables its `let`s and those of its `run` files bind (with the built-ins).
  public private(set) var bound = NameSet()
  /// The project's names as last cached, when known: unknown tables, columns and functions are
  /// warnings with the closest name (`snm check`).
  var names: SchemaCheck?
  /// The environment the script will run with: each `$env.NAME` it does not hold is an error
  /// (``Checker/environment``). Nil for `snm check`, which runs nothing.
  var environment: [String: String]?
  /// The `$env` names an `expect $env.NAME exists` guards, carried across `run` files.
  var guardedEnvironment: Set<String> = []
  /// A signal that stopped the wait for a `run` file (a FIFO, a pipe): no diagnostic, the
  /// caller ends with its exit code (130, 143); no further `run` file is read.
  public private(set) var interruption: ScriptLoadError?
  /// Whether a `run` file did not exist yet (it is checked when it runs), here or in a script
  /// file run before this one (`snm a.snm b.snm`): the names its `let`s bind are not known, so
  /// from that `run` on a variable bound nowhere else is left to the run to refuse, at its line.
  /// A variable used before it is still refused here.
  public private(set) var runsUnseen = false
  /// The files the statements checked so far write (``WrittenFiles``), carried to the next file
  /// `snm check` checks, as they will have been written when it runs.
  public internal(set) var written = WrittenFiles()

  /// Whether anything is an error.
  public var hasErrors: Bool {
    findings.contains { $0.diagnostics.contains { $0.severity == .error } }
  }

  /// How many errors there are, in all files.
  public var errorCount: Int {
    findings.reduce(0) { $0 + $1.diagnostics.filter { $0.severity == .error }.count }
  }

  /// The first error as `file:line:col` (the name's hidden characters escaped, as the
  /// diagnostic shows it) and its message, for reports.
  public var firstError: (location: String, message: String)? {
    for (source, diagnostics) in findings {
      if let first = diagnostics.first(where: { $0.severity == .error }) {
        let location = source.location(of: first.range.start)
        let file = VisibleText.escaped(source.fileName)
        return ("\(file):\(location.line):\(location.column)", first.message.text)
      }
    }
    return nil
  }

  /// The diagnostics as compilers print them (`file:line:col: error: ...`, the line, a caret),
  /// up to ``ShownDiagnostics/limit`` errors, then a line saying how many more were left out.
  public func rendered(colored: Bool) -> String {
    var shown = ShownDiagnostics()
    return shown.render(self, colored: colored) + (shown.tail ?? "")
  }

  /// A check of `source` that has found nothing yet, with `variables` bound before it and the
  /// environment it will run with (nil: `snm check`): what each check below starts from.
  private init(
    _ source: Source, variables: Set<String>, environment: [String: String]?,
    statements: [Statement] = [], diagnostics: [Diagnostic] = []
  ) {
    script = ParsedScript(source: source, statements: statements, diagnostics: diagnostics)
    known = variables
    self.environment = environment
  }

  /// Checks `script` (named `file`: nil for `-c`, standard input and the prompt) and what it runs.
  public static func check(
    _ script: ParsedScript, file: String?, variables: Set<String>, loader: ScriptLoader,
    environment: [String: String]? = nil
  ) -> ScriptCheck {
    var check = ScriptCheck(
      script.source, variables: variables, environment: environment,
      statements: script.statements, diagnostics: script.diagnostics)
    var chain: [String] = []
    if let file { chain.append(file) }
    var kept: [Statement] = []
    var statements = script.statements.makeIterator()
    let diagnostics = check.walk(
      script.source, file: file, chain: chain, loader: loader, parsed: script.diagnostics,
      next: { statements.next() }, keep: { kept.append($0) })
    check.script.statements = kept
    check.script.diagnostics = diagnostics
    // Let go of the caller's names, so binding one more after this copies nothing.
    check.known = []
    return check
  }

  /// Checks the script file `source` and what it runs, parsing a statement at a time. With
  /// `keeping` false `check.script` has no statements (run them with `ParsedStatements(source)`
  /// when the check has no errors): what `snm check` and running a large file do, so a file of
  /// millions of statements is checked in the memory of its text. With `keeping` true the file's
  /// own statements are kept, so running it does not parse it a second time. `afterUnseen`:
  /// a file run before it in the same run has a `run` of a file not there yet (``runsUnseen``);
  /// `written`: the files those before it write (``written``).
  public static func check(
    file source: Source, variables: Set<String>, loader: ScriptLoader,
    schema: DatabaseSchema? = nil, keeping: Bool = false, environment: [String: String]? = nil,
    afterUnseen: Bool = false, written: WrittenFiles = WrittenFiles()
  ) -> ScriptCheck {
    var check = ScriptCheck(source, variables: variables, environment: environment)
    check.runsUnseen = afterUnseen
    check.written = written
    check.names = schema.map(SchemaCheck.init(schema:))
    var kept: [Statement] = []
    check.script.diagnostics = check.visit(
      source, file: source.fileName, chain: [source.fileName], loader: loader,
      keep: keeping ? { kept.append($0) } : nil)
    check.script.statements = kept
    check.known = []
    return check
  }

  /// Checks the statements of the script file `source` that start at `offset` or after it (those
  /// after a `run` of a file that was not there when the script was checked, once that file has
  /// run; the text before `offset` is not read again), with `variables` bound (what has run
  /// binds): a name used there and bound nowhere, which the check before the run left to the run
  /// (the file could have bound it), is refused before the statements after that `run` run.
  public static func checkRest(
    of source: Source, from offset: Int, file: String?, variables: Set<String>,
    loader: ScriptLoader, environment: [String: String]?
  ) -> ScriptCheck {
    var check = ScriptCheck(source, variables: variables, environment: environment)
    check.script.diagnostics = check.visit(
      source, file: file, chain: file.map { [$0] } ?? [], loader: loader, from: offset)
    check.known = []
    return check
  }

  /// Checks one file with `known` and `bound` bound, a statement at a time (those from `offset`
  /// on); returns its diagnostics. `keep` receives each statement without errors; without it the
  /// statements are only checked, and made for that (``CheckingParser``: what no check reads is
  /// left out).
  mutating func visit(
    _ source: Source, file: String?, chain: [String], loader: ScriptLoader, from offset: Int = 0,
    keep: ((Statement) -> Void)? = nil
  ) -> [Diagnostic] {
    guard let keep else {
      var parser = CheckingParser(source, from: offset)
      return walk(
        source, file: file, chain: chain, loader: loader, parsed: [],
        next: { parser.nextStatement() }, keep: { _ in },
        parseDiagnostics: { parser.parseDiagnostics })
    }
    var parser = Parser(source, from: offset)
    return walk(
      source, file: file, chain: chain, loader: loader, parsed: [],
      next: { parser.nextStatement() }, keep: keep,
      parseDiagnostics: { parser.parseDiagnostics })
  }

  /// Checks the statements `next` gives (of `source`), records the file's findings and returns
  /// its diagnostics; `keep` receives each statement without errors. `parsed` are the parse
  /// errors known before, `parseDiagnostics` those found while `next` ran.
  mutating func walk(
    _ source: Source, file: String?, chain: [String], loader: ScriptLoader,
    parsed: [Diagnostic], next: () -> Statement?, keep: (Statement) -> Void,
    parseDiagnostics: () -> [Diagnostic] = { [] }
  ) -> [Diagnostic] {
    var diagnostics = parsed
    // One checker per stretch between `run`s: it carries the names each `let` binds.
    var checker = Checker(variables: known, bound: bound)
    checker.environment = environment
    checker.guardedEnvironment = guardedEnvironment
    while let statement = next() {
      let before = checker.diagnostics.count
      checker.check(statement)
      if checker.writesFile {
        checker.writesFile = false
        written.note(statement, in: source, file: file)
      }
      var clean = checker.diagnostics[before...].allSatisfy(isLeftToRun)
      if case .run(let run) = statement.kind {
        diagnostics += reported(checker.diagnostics)
        // The checker's names are these and its `let`s': taken whole, not added one by one.
        bound = checker.bound
        guardedEnvironment = checker.guardedEnvironment
        let found = include(run, from: file, chain: chain, loader: loader)
        diagnostics += found
        clean = clean && !found.contains { $0.severity == .error }
        checker = Checker(variables: known, bound: bound)
        checker.environment = environment
        checker.guardedEnvironment = guardedEnvironment
      }
      if clean { keep(statement) }
      if let names { diagnostics += names.diagnostics(for: statement) }
    }
    diagnostics += parseDiagnostics() + reported(checker.diagnostics)
    bound = checker.bound
    guardedEnvironment = checker.guardedEnvironment
    if !diagnostics.isEmpty {
      let sorted = diagnostics.sorted { $0.range.start < $1.range.start }
      let name = source.fileName
      if !findings.contains(where: { $0.source.fileName == name && $0.diagnostics == sorted }) {
        findings.append((source, sorted))
      }
      return sorted
    }
    return diagnostics
  }

  /// Whether `diagnostic` is left to the run: an undefined variable after a `run` of a file that
  /// did not exist yet, which may bind it (the run's compiler says it then, where and why).
  private func isLeftToRun(_ diagnostic: Diagnostic) -> Bool {
    runsUnseen && diagnostic.message.id == "undefined-variable"
  }

  /// The checker's `diagnostics` as this check reports them: those left to the run are dropped
  /// from a script about to run, and are warnings in `snm check`, which runs nothing (the file
  /// not there yet may bind the name, or not).
  private func reported(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
    guard runsUnseen else { return diagnostics }
    if environment != nil { return diagnostics.filter { !isLeftToRun($0) } }
    return diagnostics.map { diagnostic in
      guard isLeftToRun(diagnostic) else { return diagnostic }
      var warning = diagnostic
      warning.severity = .warning
      warning.help = "bound nowhere before it: a file it runs that is not there yet may bind it"
      return warning
    }
  }

  /// Checks the file `run` names (binding its `let`s); the diagnostics at the `run` statement
  /// itself come back.
  mutating func include(
    _ run: RunStatement, from file: String?, chain: [String], loader: ScriptLoader
  ) -> [Diagnostic] {
    if interruption != nil { return [] }
    let target = ScriptLoader.resolve(run.path, from: file)
    let identity = ScriptLoader.identity(of: target)
    if chain.contains(where: { ScriptLoader.identity(of: $0) == identity }) {
      return [Diagnostic(.runCycle(chain + [target]), at: run.pathRange)]
    }
    let included: Source
    do {
      included = try loader.load(target)
    } catch {
      if case .interrupted = error {
        interruption = error
        return []
      }
      // A file that does not exist yet, in a script about to run, may be one its earlier
      // statements write (`\o gen.snm`, an earlier test): it is checked, and refused at its
      // `run` statement with where and why, when it runs (``ScriptRunner/runInclude``), as
      // psql's `\i` is. `snm check` (no environment: nothing runs) says it now: in a warning
      // when a statement before writes it, else in an error.
      if environment != nil, error.isMissing {
        runsUnseen = true
        return []
      }
      if error.isMissing, let writer = written.writer(of: target) {
        runsUnseen = true
        return [
          Diagnostic(
            .runTargetWrittenFirst(run.path), at: run.pathRange, severity: .warning,
            help: "written by the statement at \(writer)")
        ]
      }
      return [Diagnostic(.runTarget(error), at: run.pathRange)]
    }
    _ = visit(included, file: target, chain: chain + [target], loader: loader)
    return []
  }
}
