import SNMQuery
import SNMShell

/// `snm explain [--json|--curl] [--url URL] [--var NAME=VALUE]... 'STATEMENT'...`: prints the
/// request each statement would send, offline (no server, no session).
///
/// ```swift
/// let text = try ExplainCommand(format: .json, options: options, statements: ["from t select *"])
///   .run(environment: environment)       // the requests, one per statement
/// ```
/// The URL is `--url`, else `SUPABASE_URL`, else the local project's `http://127.0.0.1:54321`.
/// Throws `UsageError` for nothing to explain, ``StatementsRefused`` with the rendered
/// diagnostics (exit 2, nothing printed on standard output).
struct ExplainCommand: Sendable, Equatable {
  /// `--json`, `--curl`, or nil: each statement's own (`explain json ...`), else readable text.
  var format: ExplainFormat?
  /// `--url` and `--var` (the project flags are accepted and ignored: nothing is sent).
  var options: ShellOptions
  /// The statements, one argument each (joined by line breaks).
  var statements: [String]

  /// The requests, rendered.
  func run(environment: [String: String]) throws -> String {
    let url =
      options.url ?? environment["SUPABASE_URL"].flatMap { $0.isEmpty ? nil : $0 }
      ?? RequestExplainer.defaultURL
    var scope = VariableScope(values: options.variableValues)
    scope.environment = environment
    let source = Source(text: statements.joined(separator: "\n"), fileName: "<command line>")
    switch RequestExplainer.explain(source, format: format, url: url, scope: scope) {
    case .explained(let text): return text
    case .refused(let rendered): throw StatementsRefused(rendered: rendered)
    case .empty: throw UsageError("no statement to explain")
    }
  }
}

/// Statements that cannot run, with their diagnostics rendered as they print (exit code 2).
struct StatementsRefused: Error, Sendable {
  var rendered: String
}
