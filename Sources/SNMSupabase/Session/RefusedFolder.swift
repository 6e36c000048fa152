import Foundation
import SNMWire
import Synchronization

/// A folder of snm's own (sessions and history in `$XDG_STATE_HOME/snm`, cached schemas in
/// `$XDG_CACHE_HOME/snm/schema`) that another account may write in (``FileIO/problem(ofPrivate:)``):
/// whoever can could plant a session, history or schema of their own. snm reads nothing from it
/// and keeps nothing in it for the rest of the run, and says so once per folder and process:
///
/// ```text
/// snm: warning: refusing /tmp/x/snm: others may write in it (mode 777); snm reads and keeps
/// nothing there this run (sessions, history, cached schemas): a sign-in lasts until snm ends.
/// Make it yours and closed to others: chmod go-w /tmp/x/snm
/// ```
/// Every reader and writer of these folders asks ``refuses(_:)`` first.
public enum RefusedFolder {
  /// Whether `path` is refused; the first refusal of a folder in this process is said on
  /// standard error. A folder that does not exist yet is not refused (snm makes it 0700).
  public static func refuses(_ path: String) -> Bool {
    guard let problem = FileIO.problem(ofPrivate: path) else { return false }
    if said.withLock({ $0.insert(path).inserted }) {
      StandardStreams.writeError("snm: warning: \(warning(path, problem))\n")
    }
    return true
  }

  /// What snm says of a refused folder: its path (from `$XDG_STATE_HOME`, `$XDG_CACHE_HOME`)
  /// with its hidden characters escaped (`\u{1B}`), as every message shows a path.
  static func warning(_ path: String, _ problem: String) -> String {
    let shown = VisibleTextLine.escaped(path)
    return "refusing \(shown): \(problem); snm reads and keeps nothing there this run (sessions, "
      + "history, cached schemas): a sign-in lasts until snm ends. "
      + FileIO.advice(forPrivate: path, elsewhere: "XDG_STATE_HOME, XDG_CACHE_HOME")
  }

  private static let said = Mutex<Set<String>>([])
}
