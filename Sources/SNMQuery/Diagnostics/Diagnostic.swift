/// A problem found in a statement, at a UTF-8 range of its source.
///
/// Diagnostics are recorded, never thrown, by the parser and the checker, so one pass reports every
/// error of a script. `DiagnosticRenderer` prints them as `file:line:col: error: message`, the line
/// and a caret.
public struct Diagnostic: Sendable, Equatable {
  public var severity: Severity
  public var message: DiagnosticMessage
  public var range: SourceRange
  /// The likely fix, printed as `help: ...` (`did you mean 'select'?`, `write 'is null'`).
  public var help: String?
  /// Related places, printed as `note: ...` with their own location (`'(' opened here`).
  public var notes: [Note]

  public init(
    _ message: DiagnosticMessage, at range: SourceRange, severity: Severity = .error,
    help: String? = nil, notes: [Note] = []
  ) {
    self.severity = severity
    self.message = message
    self.range = range
    self.help = help
    self.notes = notes
  }

  public enum Severity: String, Sendable, Equatable {
    case error, warning, note
  }

  /// A secondary location with a message.
  public struct Note: Sendable, Equatable {
    public var message: String
    public var range: SourceRange

    public init(_ message: String, at range: SourceRange) {
      self.message = message
      self.range = range
    }
  }
}

/// A message from one of the catalogs (`DiagnosticMessage+Parser.swift`, ...): lowercase, no period.
public struct DiagnosticMessage: Sendable, Hashable, CustomStringConvertible {
  /// A stable identifier for tests and documentation (`expected-value`, `eq-null`).
  public var id: String
  public var text: String

  public init(id: String, _ text: String) {
    self.id = id
    self.text = text
  }

  public var description: String { text }
}

/// A diagnostic is thrown where one failure ends the work (compiling one statement).
extension Diagnostic: Error {}
