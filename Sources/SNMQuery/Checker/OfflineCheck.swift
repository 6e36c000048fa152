import SNMNetwork
import SNMSupabase
import SNMWire

/// Everything that can be checked without a server: parse, the checker's rules, and compiling each
/// query and `rpc` to its builder chain (unbound variables stand for placeholders). What `snm check`
/// runs on each file. The request itself is not rendered: the checker already enforces what the
/// builder would refuse when building.
///
/// ```swift
/// let checked = OfflineCheck().run(Source(text: text, fileName: path))
/// if checked.hasErrors {
///   FileHandle.standardError.write(Data(DiagnosticRenderer().render(checked.diagnostics, in: checked.source).utf8))
/// }
/// ```
public struct OfflineCheck: Sendable {
  let compiler: StatementCompiler

  /// - Parameter variables: names bound before the script starts (`--var`).
  public init(variables: [String: JSONValue] = [:], environment: [String: String] = [:]) {
    let manager = SupabaseDBManager(
      config: SupabaseConfig(url: RequestExplainer.defaultURL, anonKey: ""))
    compiler = StatementCompiler(
      manager: manager,
      scope: VariableScope(values: variables, environment: environment, placeholders: true))
  }

  /// Every diagnostic of `source`, in source order. Statements are parsed, checked and compiled one
  /// at a time and then dropped, so a long file needs little memory.
  public func diagnostics(for source: Source) -> [Diagnostic] {
    var parser = Parser(source)
    var checker = Checker(variables: compiler.scope.names)
    var diagnostics: [Diagnostic] = []
    while let statement = parser.nextStatement() {
      let before = checker.diagnostics.count
      checker.check(statement)
      if checker.diagnostics.count == before, let diagnostic = compileDiagnostic(statement) {
        diagnostics.append(diagnostic)
      }
    }
    diagnostics += parser.parseDiagnostics + checker.diagnostics
    diagnostics.sort { $0.range.start < $1.range.start }
    return diagnostics
  }

  /// The parsed script with every diagnostic found; statements with errors are left out.
  public func run(_ source: Source) -> ParsedScript {
    var script = Parser.parse(source)
    Checker.check(&script, variables: compiler.scope.names)
    var kept: [Statement] = []
    kept.reserveCapacity(script.statements.count)
    for statement in script.statements {
      if let diagnostic = compileDiagnostic(statement) {
        script.diagnostics.append(diagnostic)
      } else {
        kept.append(statement)
      }
    }
    script.statements = kept
    script.diagnostics.sort { $0.range.start < $1.range.start }
    return script
  }

  /// What compiling a request statement to its builder chain reports, if anything.
  func compileDiagnostic(_ statement: Statement) -> Diagnostic? {
    if AuthCompiler.authStatement(statement) != nil {
      do {
        _ = try AuthCompiler(scope: compiler.scope).compile(statement)
        return nil
      } catch {
        return error
      }
    }
    if let inner = RequestExplainer.serviceStatement(statement) {
      return compileDiagnostic(inner)
    }
    switch statement.kind {
    case .query, .rpc, .shell(.explain):
      break
    case .let(let binding):
      guard case .statement = binding.value else { return nil }
    default:
      return nil
    }
    do {
      _ = try compiler.chain(statement)
      return nil
    } catch {
      return error
    }
  }
}
