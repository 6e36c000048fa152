import Foundation
import SNMQuery
import SNMSupabase

extension StatementExecutor {
  /// `\conninfo`: the project, the kind of key and the role it runs as, who is signed in and for
  /// how long. Never a key or a token; the URL without any user or password in it.
  func runConnectionInfo() async -> StatementResult {
    let key = SupabaseAPIKey(project.key)
    let kind =
      switch key.kind {
      case .publishable: "a publishable key"
      case .secret: "a secret key"
      case .legacyJWT: "a legacy \(key.role) key"
      case .unknown: "a key"
      }
    var line = "You are connected to project \"\(project.name)\" at \(Self.shownURL(project.url))"
    line += " with \(kind) (role \(key.role))"
    if let session = await sessions.currentSession {
      let report = SessionReport(
        session: session, now: Date(), refreshed: false, keyRole: project.keyRole)
      let who = session.user.email.flatMap { $0.isEmpty ? nil : $0 } ?? "an anonymous user"
      let left = session.timeLeft(now: Date())
      let expiry =
        left > 0
        ? "token valid for \(SessionReport.duration(left))"
        : "token expired \(SessionReport.duration(-left)) ago"
      line += ", signed in as \(who) (\(report.role), \(expiry))."
    } else {
      line += ", not signed in."
    }
    tell(VisibleText.escaped(line))
    return .succeeded(nil)
  }

  /// `url` as `\conninfo` shows it: scheme, host, port and path, never a user or password.
  static func shownURL(_ url: URL) -> String {
    guard var parts = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
      return url.absoluteString
    }
    parts.user = nil
    parts.password = nil
    return parts.string ?? url.absoluteString
  }

  /// `\o FILE`: results go to FILE, created (0600) or emptied; `\o`: back to standard output.
  /// Notes, help and errors stay on the terminal. A file that cannot be opened leaves the output
  /// where it was.
  func runOutput(to path: String?) -> StatementResult {
    guard let path else {
      let closed = resultsFile.withLock { file in
        defer { file = nil }
        return file
      }
      closed?.close()
      if let closed { note("results go to standard output again (were going to \(closed.path))") }
      return .succeeded(nil)
    }
    let opened: ResultsFile
    do {
      opened = try ResultsFile(path: path)
    } catch {
      return fail(.usage, "cannot write results to '\(path)': \(error.reason)")
    }
    let previous = resultsFile.withLock { file in
      defer { file = opened }
      return file
    }
    previous?.close()
    note("results go to \(path) (\\o alone sends them back to standard output)")
    return .succeeded(nil)
  }

  /// `\?`: the psql-style commands.
  func runBackslashHelp() -> StatementResult {
    tell(LanguageHelp.backslashCommands)
    return .succeeded(nil)
  }
}
