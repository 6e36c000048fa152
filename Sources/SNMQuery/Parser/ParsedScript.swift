/// The parser's result: the statements that parsed, and a diagnostic for each one that did not.
///
/// ```swift
/// let script = Parser.parse(Source(text: text, fileName: "a.snm"))
/// if script.hasErrors {
///   print(DiagnosticRenderer().render(script.diagnostics, in: script.source))
/// }
/// ```
public struct ParsedScript: Sendable {
  public var source: Source
  /// The statements without errors, in source order.
  public var statements: [Statement]
  /// Parse errors (and, after `Checker.check`, semantic ones), in source order.
  public var diagnostics: [Diagnostic]

  public init(source: Source, statements: [Statement], diagnostics: [Diagnostic]) {
    self.source = source
    self.statements = statements
    self.diagnostics = diagnostics
  }

  /// Whether any diagnostic is an error.
  public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }
}

/// A parse error on its way to the statement loop, which records it and skips to the next statement.
struct ParseFailure: Error {
  var diagnostic: Diagnostic
}
