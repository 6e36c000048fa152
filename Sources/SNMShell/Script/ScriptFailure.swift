/// Why a script stopped (or, with `on_error continue`, one of the things that went wrong): where,
/// in which statement, and what was expected versus found.
///
/// ```
/// checks.snm:7:1: error: expectation failed: expect rows 1
///   expected: 1 row
///   found:    0 rows
/// ```
public struct ScriptFailure: Sendable, Equatable {
  /// What kind of failure, as reports name it.
  public enum Kind: String, Sendable, CaseIterable {
    /// An `expect` that did not hold.
    case expectation
    /// A statement the server (or the auth server) refused.
    case statement
    /// A parse or check error: nothing ran.
    case parse
    /// The project could not be reached, or signing in failed.
    case unreachable
    /// SIGINT or SIGTERM stopped the script.
    case interrupted
    /// Anything else that stopped the script (a file that cannot be read, a `run` cycle).
    case error
  }

  public var kind: Kind
  /// `file:line:col` of the statement (or of the first diagnostic), the file's name with its
  /// hidden characters escaped (`\u{1B}`), as printed: reports hold it as it was shown.
  public var location: String
  /// The statement as written, on one line (shortened past 120 characters).
  public var statement: String
  /// The first line of the explanation.
  public var message: String
  /// What the expectation wanted, for `expect` failures.
  public var expected: String?
  /// What it found instead.
  public var found: String?
  /// Everything printed about the failure, as on standard error.
  public var text: String

  /// `statement` on one line: line continuations (`\` at the end of a line) go, runs of whitespace
  /// (line breaks too) become one space, and past `limit` characters it ends in `...`.
  public static func oneLine(_ statement: String, limit: Int = 120) -> String {
    let joined = statement.replacingOccurrences(of: "\\\r\n", with: " ")
      .replacingOccurrences(of: "\\\n", with: " ")
    let words = joined.split(whereSeparator: { $0 == " " || $0 == "\t" || $0.isNewline })
    let line = words.joined(separator: " ")
    guard line.count > limit else { return line }
    return String(line.prefix(limit - 3)) + "..."
  }
}

extension ScriptFailure {
  /// The record of a check that failed (nil when it has no error): its first error's place and
  /// message; `text` is what was printed about it.
  static func checkFailed(_ check: ScriptCheck, text: String) -> ScriptFailure? {
    guard let first = check.firstError else { return nil }
    return ScriptFailure(
      kind: .parse, location: first.location, statement: "", message: first.message, text: text)
  }

  /// The record of the script file `path` that could not be read (or whose wait a signal
  /// stopped), its name's hidden characters escaped as every location's are; `text` is what was
  /// printed about it.
  static func unreadable(_ path: String, _ error: ScriptLoadError, text: String) -> ScriptFailure {
    ScriptFailure(
      kind: error.exitCode == .usage ? .error : .interrupted,
      location: VisibleText.escaped(path), statement: "",
      message: error.description, text: text)
  }
}
