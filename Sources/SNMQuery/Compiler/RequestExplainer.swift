import SNMNetwork
import SNMSupabase
import SNMWire

/// The request a statement would send, rendered for people (`explain` at the prompt, `snm
/// explain`): offline, with no server and no session.
///
/// ```swift
/// let outcome = RequestExplainer.explain(source, format: .json, url: url, scope: scope)
/// if case .explained(let text) = outcome { print(text, terminator: "") }
/// RequestExplainer.render(compiled.request, format: .curl)   // one request
/// ```
/// `apikey` and `Authorization` are never shown; `curl` writes them as `$SUPABASE_ANON_KEY` and
/// `$TOKEN`.
public enum RequestExplainer {
  /// What explaining a source gave.
  public enum Outcome: Sendable, Equatable {
    /// Every statement's request, rendered, in order.
    case explained(String)
    /// Nothing is explained: the source's diagnostics, rendered (`file:line:col: error: ...`).
    case refused(String)
    /// The source holds no statement.
    case empty
  }

  /// The local project's default URL.
  public static let defaultURL = "http://127.0.0.1:54321"

  /// Explains every statement of `source` against the project at `url` (`format` nil: each
  /// statement's own, `explain json ...`, else readable text). Any diagnostic refuses them all.
  public static func explain(
    _ source: Source, format: ExplainFormat?, url: String, scope: VariableScope
  ) -> Outcome {
    var script = Parser.parse(source)
    Checker.check(&script, variables: scope.names)
    var diagnostics = script.diagnostics
    let manager = SupabaseDBManager(config: SupabaseConfig(url: trimmedURL(url), anonKey: ""))
    let compiler = StatementCompiler(manager: manager, scope: scope)
    let storage = StorageCompiler(
      manager: SupabaseStorageManager(config: manager.config, provider: manager.provider),
      scope: scope)
    var blocks: [String] = []
    if diagnostics.isEmpty {
      for statement in script.statements {
        var chosen = format ?? .text
        if format == nil, case .shell(.explain(_, let written)) = statement.kind {
          chosen = written
        }
        let shown = chosen
        func add(_ block: String) { blocks.append(visible(block, format: shown)) }
        do {
          if let realtime = RealtimeCompiler.realtimeStatement(statement),
            let call = try RealtimeCompiler(scope: scope).compile(realtime)
          {
            add(render(call, base: manager.config.url, format: chosen))
          } else if let call = try authCall(statement, scope: scope) {
            add(render(call, base: manager.config.url, format: chosen))
          } else if let inner = serviceStatement(statement) {
            let rendered =
              StorageCompiler.storageStatement(inner) != nil
              ? render(try storage.compile(inner), format: chosen)
              : render(try compiler.compile(inner).request, format: chosen)
            add(
              withPaging(
                asService(rendered, format: chosen), of: statement, format: chosen, tiebreak: nil))
          } else if StorageCompiler.storageStatement(statement) != nil {
            add(render(try storage.compile(statement), format: chosen))
          } else {
            let compiled = try compiler.compile(statement)
            add(
              withPaging(
                render(compiled.request, format: chosen), of: statement, format: chosen,
                tiebreak: nil))
          }
        } catch {
          diagnostics.append(error)
        }
      }
    }
    if script.statements.isEmpty && diagnostics.isEmpty { return .empty }
    guard diagnostics.isEmpty else {
      return .refused(DiagnosticRenderer().render(diagnostics, in: source))
    }
    return .explained(blocks.joined(separator: format == .json ? "" : "\n"))
  }

  /// `block` (one request in `format`) as printed: the statement's own text may hold characters
  /// that make a line read otherwise than it is (a right-to-left override: Trojan Source). Text
  /// shows them as the diagnostics do (`\u{202E}`), at a terminal and to a pipe, as a person reads
  /// it; json writes them as `\u202e` escapes (the same JSON value); curl's words are quoted so
  /// (``ShellWord``).
  public static func visible(_ block: String, format: ExplainFormat) -> String {
    switch format {
    case .text: VisibleTextLine.escapedKeepingLines(block)
    case .json: VisibleTextLine.escapedJSON(block)
    case .curl: block
    }
  }

  /// The call of an auth statement (itself, or in `explain` or `let`), or nil for another.
  static func authCall(_ statement: Statement, scope: VariableScope) throws(Diagnostic)
    -> AuthCall?
  {
    guard AuthCompiler.authStatement(statement) != nil else { return nil }
    return try AuthCompiler(scope: scope).compile(statement)
  }

  /// The statement under `as service` (itself, or in `explain` or `let`), or nil.
  public static func serviceStatement(_ statement: Statement) -> Statement? {
    statement.inner { kind in
      if case .asService(let inner) = kind { inner } else { nil }
    }
  }

  static func trimmedURL(_ url: String) -> String {
    var url = url
    while url.hasSuffix("/") { url.removeLast() }
    return url
  }

  /// One request in the chosen format, ending with a newline. When `SNM_GEN_SWIFT` names a file
  /// `snm gen swift` wrote, text and json add the supabase-swift chain naming its types
  /// (``SupabaseSwiftChain``): a `supabase` section, a `supabase_swift` member.
  public static func render(_ request: SupabaseDBRequest, format: ExplainFormat) -> String {
    let chain = supabaseChain(request, GeneratedSwiftNames.configured())
    switch format {
    case .json:
      guard let chain, case .object(var object) = request.explainJSON() else {
        return request.explainJSON().serialized() + "\n"
      }
      object["supabase_swift"] = .string(chain.joined(separator: "\n"))
      return JSONValue.object(object).serialized() + "\n"
    case .curl: return request.curlCommand() + "\n"
    case .text:
      guard let chain else { return readableBlock(request) }
      var lines: [String] = []
      appendSection("supabase", chain, to: &lines)
      return readableBlock(request) + lines.joined(separator: "\n") + "\n"
    }
  }

  /// The supabase-swift chain's lines, or a line saying why the generated file gives none; nil
  /// when no file is named.
  static func supabaseChain(
    _ request: SupabaseDBRequest,
    _ names: Result<GeneratedSwiftNames, GeneratedSwiftNames.Unreadable>?
  ) -> [String]? {
    switch names {
    case nil: return nil
    case .success(let names): return SupabaseSwiftChain(request, names: names).lines
    case .failure(let problem):
      return [
        "// \(GeneratedSwiftNames.variable) names \(SwiftLiteral.string(problem.path)), which cannot be read"
      ]
    }
  }
}
