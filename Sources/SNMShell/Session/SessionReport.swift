import Foundation
import SNMNetwork
import SNMSupabase
import SNMWire

/// What `session show` and `session check` print: who is signed in, the role, whether the user
/// is anonymous, the provider the session signed in with and its assurance level (the access
/// token's `amr` and `aal`), when the token expires. Never a token.
///
/// ```
/// user_id     6f1b2c3d-...
/// email       kim@example.com
/// role        authenticated
/// anonymous   no
/// provider    email  (apple, github, phone, anonymous, ...)
/// aal         aal1   (aal2 once a second factor was verified: `mfa verify`)
/// expires_at  2026-11-29T15:33:56Z (in 59m 58s)
/// ```
/// With `--format json`/`ndjson`, one JSON object instead.
struct SessionReport {
  let session: SupabaseSession?
  let now: Date
  let refreshed: Bool
  /// The role of the project's API key, which requests run as when no one is signed in.
  var keyRole = "anon"
  /// Signed out because the server ended the session kept here (said on a line of its own).
  var ended: SessionStoreError?
  /// Signed out because the stored session could not be used, where requests fail rather than go
  /// signed out in its place (a script: ``SessionManager/storedSessionStopsRequests``).
  var stopped: SessionStoreError?

  /// `authenticated` (from the token's claims, else the user record); the key's role (`anon`,
  /// `service_role`) when signed out.
  var role: String {
    guard let session else { return keyRole }
    return session.claims.role ?? session.user.role ?? "authenticated"
  }

  /// The `session show` text.
  func render(_ format: OutputFormat) -> String {
    if format == .json || format == .ndjson { return json().serialized() }
    guard let session else {
      if let stopped { return "not signed in: \(SupabaseSessionError.storedUnusable(stopped))" }
      if let ended { return "not signed in: \(ended)" }
      return "not signed in (requests use the project's API key, role \(keyRole))"
    }
    var rows: [(String, String)] = [("user_id", session.user.id.uuidString.lowercased())]
    if let email = session.user.email, !email.isEmpty { rows.append(("email", email)) }
    rows += [("role", role), ("anonymous", session.user.isAnonymous ? "yes" : "no")]
    if let provider = session.claims.signInProvider { rows.append(("provider", provider)) }
    rows += [
      ("aal", session.claims.aal ?? "aal1"),
      ("expires_at", Self.timestamp(session.expiresAt) + " (\(timeLeftText(session)))"),
    ]
    let width = rows.map(\.0.count).max() ?? 0
    return rows.map { $0.0.padding(toLength: width + 2, withPad: " ", startingAt: 0) + $0.1 }
      .joined(separator: "\n")
  }

  /// The `session check` line: `signed in as kim@example.com (authenticated) with email, aal1,
  /// 59m 58s left`.
  func checkLine(_ format: OutputFormat) -> String {
    if format == .json || format == .ndjson { return json().serialized() }
    guard let session else { return "not signed in" }
    let left = session.timeLeft(now: now)
    var text = "signed in as \(session.user.displayName) (\(role))"
    if let provider = session.claims.signInProvider { text += " with \(provider)" }
    text += ", \(session.claims.aal ?? "aal1"), "
    text += left > 0 ? "\(Self.duration(left)) left" : "expired"
    if refreshed { text += " (refreshed)" }
    return text
  }

  /// `$session` for scripts: user id, role, e-mail, whether anonymous, the assurance level; the
  /// key's role and a null user id when signed out.
  static func values(of session: SupabaseSession?, keyRole: String) -> JSONValue {
    guard let session else {
      return ["user_id": .null, "role": .string(keyRole), "email": .null, "is_anonymous": false]
    }
    let report = SessionReport(session: session, now: Date(), refreshed: false, keyRole: keyRole)
    return [
      "user_id": .string(session.user.id.uuidString.lowercased()), "role": .string(report.role),
      "email": session.user.email.flatMap { $0.isEmpty ? nil : JSONValue.string($0) } ?? .null,
      "is_anonymous": .bool(session.user.isAnonymous),
      "aal": .string(session.claims.aal ?? "aal1"),
      "provider": session.claims.signInProvider.map { .string($0) } ?? .null,
    ]
  }

  /// `{"signed_in": true, "user_id": ..., ...}`; signed out, `{"signed_in": false, "role": ...}`,
  /// with `"ended_by_server": {"code": ..., "date": ..., "path": ...}` where the server ended the
  /// session kept here, and `"stored_session_unusable": "..."` (the text's line) where requests
  /// fail rather than go signed out.
  func json() -> JSONValue {
    guard let session else {
      var object: JSONObject = ["signed_in": false, "role": .string(keyRole)]
      if case .endedByServer(let path, let code, let date)? = ended {
        object.append(
          "ended_by_server",
          ["code": .string(code), "date": .string(date), "path": .string(path)])
      }
      if let stopped {
        object.append(
          "stored_session_unusable",
          .string(SupabaseSessionError.storedUnusable(stopped).description))
      }
      return .object(object)
    }
    var object: JSONObject = [
      "signed_in": true, "user_id": .string(session.user.id.uuidString.lowercased()),
    ]
    if let email = session.user.email, !email.isEmpty { object.append("email", .string(email)) }
    object.append("role", .string(role))
    object.append("is_anonymous", .bool(session.user.isAnonymous))
    if let provider = session.claims.signInProvider { object.append("provider", .string(provider)) }
    object.append("aal", .string(session.claims.aal ?? "aal1"))
    object.append("expires_at", .string(Self.timestamp(session.expiresAt)))
    let left = Int(exactly: session.timeLeft(now: now).rounded(.down)) ?? 0
    object.append("expires_in", .number(JSONNumber(max(left, 0))))
    if refreshed { object.append("refreshed", true) }
    return .object(object)
  }

  private func timeLeftText(_ session: SupabaseSession) -> String {
    let left = session.timeLeft(now: now)
    return left > 0 ? "in \(Self.duration(left))" : "expired \(Self.duration(-left)) ago"
  }

  /// `1h 2m`, `59m 58s`, `5s`.
  static func duration(_ seconds: TimeInterval) -> String {
    // Checked: sessions are validated when decoded, but a number never converts unchecked.
    let total = max(0, Int(exactly: seconds.rounded(.down)) ?? 0)
    let hours = total / 3600
    let minutes = total % 3600 / 60
    let rest = total % 60
    if hours > 0 { return "\(hours)h \(minutes)m" }
    if minutes > 0 { return "\(minutes)m \(rest)s" }
    return "\(rest)s"
  }

  /// ISO 8601 in UTC, whole seconds.
  static func timestamp(_ date: Date) -> String {
    let formatter = ISO8601DateFormatter()
    formatter.timeZone = TimeZone(identifier: "UTC")
    return formatter.string(from: date)
  }
}
