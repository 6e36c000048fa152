import SNMQuery

/// Checks a script without a network: parse errors, the checker's rules, and every file its `run`
/// statements name (recursively), with the variables bound before each `run`.
///
/// ```swift
/// let check = ScriptCheck.check(try loader.load(path), file: path, variables: ["n"], loader: loader)
/// if check.hasErrors { print(check.rendered(colored: false)) }   // nothing may run
/// ```
/// A `run` of a missing file, or one that would run a file already running (`a.snm -> b.snm ->
/// a.snm`), is an error at the `run` statement.
public struct ScriptCheck: Sendable {
  /// Diagnostics by source, in the order the files were reached.
  public var findings: [(source: Source, diagnostics: [Diagnostic])] = []
  /// The script with the statements that had errors left out.
  public var script: ParsedScript
  /// The variables bound before it (`--var`, earlier statements), handed to each checker as
  /// they are (never copied: standard input checks a statement at a time).
  private var known: Set<String>
  /// The variables its `let`s and those of its `run` files bind.
  public private(set) var bound: Set<String> = []

  /// Whether anything is an error.
  public var hasErrors: Bool {
    findings.contains { $0.diagnostics.contains { $0.severity == .error } }
  }

  /// How many errors there are, in all files.
  public var errorCount: Int {
    findings.reduce(0) { $0 + $1.diagnostics.filter { $0.severity == .error }.count }
  }

  /// The first error as `file:line:col` and its message, for reports.
  public var firstError: (location: String, message: String)? {
    for (source, diagnostics) in findings {
      if let first = diagnostics.first(where: { $0.severity == .error }) {
        let location = source.location(of: first.range.start)
        return ("\(source.fileName):\(location.line):\(location.column)", first.message.text)
      }
    }
    return nil
  }

  /// Every diagnostic as compilers print them (`file:line:col: error: ...`, the line, a caret).
  public func rendered(colored: Bool) -> String {
    let renderer = DiagnosticRenderer(colored: colored)
    return findings.map { renderer.render($0.diagnostics, in: $0.source) }.joined()
  }

  /// Checks `script` (named `file`: nil for `-c`, standard input and the prompt) and what it runs.
  public static func check(
    _ script: ParsedScript, file: String?, variables: Set<String>, loader: ScriptLoader
  ) -> ScriptCheck {
    var check = ScriptCheck(script: script, known: variables)
    var chain: [String] = []
    if let file { chain.append(file) }
    check.script = check.visit(script, file: file, chain: chain, loader: loader)
    // Let go of the caller's names, so binding one more after this copies nothing.
    check.known = []
    return check
  }

  /// Checks one file with `known` and `bound` bound; returns it without the statements that had
  /// errors.
  mutating func visit(
    _ script: ParsedScript, file: String?, chain: [String], loader: ScriptLoader
  ) -> ParsedScript {
    var diagnostics = script.diagnostics
    var kept: [Statement] = []
    // One checker per stretch between `run`s: it carries the names each `let` binds.
    var checker = Checker(variables: known, bound: bound)
    for statement in script.statements {
      let before = checker.diagnostics.count
      checker.check(statement)
      var clean = checker.diagnostics.count == before
      if case .run(let run) = statement.kind {
        diagnostics += checker.diagnostics
        bound.formUnion(checker.bound)
        let found = include(run, from: file, chain: chain, loader: loader)
        diagnostics += found
        clean = clean && found.isEmpty
        checker = Checker(variables: known, bound: bound)
      }
      if clean { kept.append(statement) }
    }
    diagnostics += checker.diagnostics
    bound.formUnion(checker.bound)
    if !diagnostics.isEmpty {
      let sorted = diagnostics.sorted { $0.range.start < $1.range.start }
      let name = script.source.fileName
      if !findings.contains(where: { $0.source.fileName == name && $0.diagnostics == sorted }) {
        findings.append((script.source, sorted))
      }
    }
    var result = script
    result.statements = kept
    result.diagnostics = diagnostics
    return result
  }

  /// Checks the file `run` names (binding its `let`s); the diagnostics at the `run` statement
  /// itself come back.
  mutating func include(
    _ run: RunStatement, from file: String?, chain: [String], loader: ScriptLoader
  ) -> [Diagnostic] {
    let target = ScriptLoader.resolve(run.path, from: file)
    let identity = ScriptLoader.identity(of: target)
    if chain.contains(where: { ScriptLoader.identity(of: $0) == identity }) {
      return [Diagnostic(.runCycle(chain + [target]), at: run.pathRange)]
    }
    let included: ParsedScript
    do {
      included = try loader.load(target)
    } catch {
      return [Diagnostic(.runTarget(error), at: run.pathRange)]
    }
    _ = visit(included, file: target, chain: chain + [target], loader: loader)
    return []
  }
}
