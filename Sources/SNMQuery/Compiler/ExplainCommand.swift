import SNMNetwork
import SNMSupabase

/// `snm explain [--json|--curl] [--url URL] [--var NAME=VALUE]... 'STATEMENT'...`: prints the
/// request each statement would send, offline (no server, no session).
///
/// ```swift
/// let result = ExplainCommand.run(["--json", "from user_info select *"], environment: env)
/// print(result.output, terminator: "")   // {"method":"GET","path":"/rest/v1/user_info",...}
/// exit(result.status)                     // 0, or 2 with rendered diagnostics in result.errors
/// ```
/// The URL is `--url`, else `SUPABASE_URL`, else the local project's `http://127.0.0.1:54321`.
/// `apikey` and `Authorization` are never shown; `--curl` writes them as `$SUPABASE_ANON_KEY` and
/// `$TOKEN`.
public enum ExplainCommand {
  /// What the command prints and its exit code.
  public struct Result: Sendable, Equatable {
    public var output: String
    public var errors: String
    public var status: Int32
  }

  /// The local project's default URL.
  public static let defaultURL = "http://127.0.0.1:54321"

  public static let usage = """
    usage: snm explain [--json | --curl] [--url URL] [--var NAME=VALUE]... 'STATEMENT'...
      prints the request each statement would send; sends nothing
      --json   one spec §6 JSON object per statement
      --curl   a curl command line ($SUPABASE_ANON_KEY and $TOKEN stand for the key and token)

    """

  /// Runs the command with `arguments` (those after `explain`).
  public static func run(_ arguments: [String], environment: [String: String]) -> Result {
    var options: Options
    switch Options.parse(arguments) {
    case .success(let parsed): options = parsed
    case .failure(let problem):
      if problem.message.isEmpty { return Result(output: usage, errors: "", status: 0) }
      return Result(output: "", errors: "snm explain: \(problem.message)\n\(usage)", status: 2)
    }
    let url =
      options.url ?? environment["SUPABASE_URL"].flatMap { $0.isEmpty ? nil : $0 } ?? defaultURL
    options.scope.environment = environment
    let source = Source(
      text: options.statements.joined(separator: "\n"), fileName: "<command line>")
    return explain(source, format: options.format, url: url, scope: options.scope)
  }

  /// Explains every statement of `source`; any diagnostic means exit 2 and nothing printed to output.
  public static func explain(
    _ source: Source, format: ExplainFormat?, url: String, scope: VariableScope
  )
    -> Result
  {
    var script = Parser.parse(source)
    Checker.check(&script, variables: scope.names)
    var diagnostics = script.diagnostics
    let manager = SupabaseDBManager(config: SupabaseConfig(url: trimmedURL(url), anonKey: ""))
    let compiler = StatementCompiler(manager: manager, scope: scope)
    var blocks: [String] = []
    if diagnostics.isEmpty {
      for statement in script.statements {
        var chosen = format ?? .text
        if format == nil, case .shell(.explain(_, let written)) = statement.kind {
          chosen = written
        }
        do {
          let compiled = try compiler.compile(statement)
          blocks.append(render(compiled.request, format: chosen))
        } catch {
          diagnostics.append(error)
        }
      }
    }
    if script.statements.isEmpty && diagnostics.isEmpty {
      return Result(output: "", errors: "snm explain: no statement to explain\n\(usage)", status: 2)
    }
    guard diagnostics.isEmpty else {
      return Result(
        output: "", errors: DiagnosticRenderer().render(diagnostics, in: source), status: 2)
    }
    let separator = format == .json ? "" : "\n"
    return Result(output: blocks.joined(separator: separator), errors: "", status: 0)
  }

  static func trimmedURL(_ url: String) -> String {
    var url = url
    while url.hasSuffix("/") { url.removeLast() }
    return url
  }

  /// One request in the chosen format, ending with a newline.
  public static func render(_ request: SupabaseDBRequest, format: ExplainFormat) -> String {
    switch format {
    case .json: request.explainJSON().serialized() + "\n"
    case .curl: request.curlCommand() + "\n"
    case .text: readableBlock(request)
    }
  }
}
