import Foundation
import SNMSupabase

extension PsqlCommand {
  /// `\conninfo`'s line: the project, the kind of key and the role it runs as, who is signed in
  /// and for how long. Never a key or a token; the URL without any user or password in it.
  static func connectionInfo(of environment: StatementEnvironment) async -> String {
    let project = environment.project
    let key = SupabaseAPIKey(project.key)
    let kind =
      switch key.kind {
      case .publishable: "a publishable key"
      case .secret: "a secret key"
      case .legacyJWT: "a legacy \(key.role) key"
      case .unknown: "a key"
      }
    var line = "You are connected to project \"\(project.name)\" at \(shownURL(project.url))"
    line += " with \(kind) (role \(key.role))"
    if let session = await environment.sessions.currentSession {
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
    return line
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
}
