import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A question asked at the terminal before snm deletes something (`snm local destroy`,
/// `snm local list --prune`); `--yes` answers it for scripts.
///
/// ```swift
/// guard try Confirmation(yes: yes, action: "snm local destroy").ask("type its name", accept: ["p"])
/// else { return 1 }
/// ```
struct Confirmation {
  /// `--yes`: no question.
  var yes: Bool
  /// The command refused without a terminal (`destroy`, `list --prune`).
  var action: String

  /// True when `--yes` was given or the answer typed is one of `accept`. Throws a usage error
  /// (exit 2) when there is no terminal to ask at and no `--yes`.
  func ask(_ question: String, accept: Set<String>) throws(LocalProjectError) -> Bool {
    if yes { return true }
    guard isatty(STDIN_FILENO) == 1 else {
      throw LocalProjectError(
        .usage, "\(action) deletes data: confirm at a terminal, or add --yes (no terminal here)")
    }
    writeError(question)
    guard let answer = readLine() else { return false }
    return accept.contains(answer.trimmingCharacters(in: .whitespaces))
  }
}
