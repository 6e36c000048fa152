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

  /// The requests, rendered. A URL with a service's path (`.../rest/v1`) stands for its project,
  /// as in every other command; `note` is told so.
  func run(environment: [String: String], note: (String) -> Void = { _ in }) throws -> String {
    let given = options.url ?? environment["SUPABASE_URL"].flatMap { $0.isEmpty ? nil : $0 }
    var url = given ?? RequestExplainer.defaultURL
    if let given, ProjectSelection.servicePath(in: given) != nil,
      let project = ProjectSelection.projectURL(given)
    {
      let source = options.url == nil ? "SUPABASE_URL" : "--url"
      for text in ProjectChoice.pathNote(given, from: source) { note(text) }
      url = project.absoluteString
    }
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
