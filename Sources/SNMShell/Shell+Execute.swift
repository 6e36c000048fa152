import Foundation
import SNMQuery

extension Shell {
  /// Runs every statement in `text`; returns whether all of them succeeded.
  func execute(_ text: String, source: String) async -> Bool {
    var succeeded = true
    for statement in text.split(whereSeparator: { $0 == ";" || $0 == "\n" }) {
      let words = statement.split(separator: " ").map { $0.lowercased() }
      guard let first = words.first else { continue }
      switch first {
      case "exit", "quit", "\\q":
        state.withLock { $0.exitRequested = true }
        return succeeded
      case "login", "signup", "session", "logout":
        let parsed = Parser.parse(String(statement), fileName: source)
        if !parsed.diagnostics.isEmpty {
          errors.write(DiagnosticRenderer().render(parsed.diagnostics, in: parsed.source))
          errors.flush()
          state.withLock { $0.failure = $0.failure ?? .usage }
          succeeded = false
        } else if case .session(let command)? = parsed.statements.first?.kind {
          succeeded = await runSession(command) && succeeded
        }
      case "help":
        output.write(HelpText.usage)
        output.flush()
      default:
        report("statements need the snm language, which is not built yet: \(statement)")
        state.withLock { $0.failure = $0.failure ?? .usage }
        succeeded = false
      }
    }
    return succeeded
  }
}
