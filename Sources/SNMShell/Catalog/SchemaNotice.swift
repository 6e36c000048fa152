import Foundation

/// What `tables` and `describe` say when their answer is not the server's own now: the schema
/// was refused to this key, or it comes from the cache because the project cannot be reached.
///
/// ```
/// snm: the project could not be reached (connection refused): showing the schema cached
/// 3 hours ago (2026-12-04 09:12 UTC), which may be out of date
/// ```
enum SchemaNotice {
  /// Why the OpenAPI document (`GET /rest/v1/`) was refused. Hosted projects give it only to
  /// secret keys: a publishable (anon) key gets 401.
  static func refusal(status: Int, message: String?) -> String {
    let said = message.map { ": " + VisibleText.escaped($0) } ?? ""
    guard status == 401 || status == 403 else {
      return "the server refused the schema (HTTP \(status)\(said))"
    }
    return
      "this key cannot read the project's schema (GET /rest/v1/ answered HTTP \(status)\(said)):"
      + " hosted projects give it only to secret keys, not to publishable (anon) ones; use a secret"
      + " key (--key sb_secret_...) to list every table"
  }

  /// What `tables` adds when the schema was refused: the tables seen in results stand in.
  static func standIn(seen: Int) -> String {
    seen == 0
      ? "no tables seen in results yet: a table shows here once a query reads it"
      : "showing the tables seen in results"
  }

  /// The warning for a schema served from the cache because the project cannot be reached.
  static func cached(reason: String, storedAt: Date, now: Date = Date()) -> String {
    "the project could not be reached (\(reason)): showing the schema cached "
      + "\(age(from: storedAt, to: now)) (\(timestamp(storedAt))), which may be out of date"
  }

  /// `just now`, `12 minutes ago`, `3 hours ago`, `2 days ago`.
  static func age(from then: Date, to now: Date) -> String {
    let seconds = max(0, Int(now.timeIntervalSince(then)))
    func ago(_ count: Int, _ unit: String) -> String {
      "\(count) \(unit)\(count == 1 ? "" : "s") ago"
    }
    switch seconds {
    case ..<60: return "just now"
    case ..<3600: return ago(seconds / 60, "minute")
    case ..<86_400: return ago(seconds / 3600, "hour")
    default: return ago(seconds / 86_400, "day")
    }
  }

  /// `2026-12-04 09:12 UTC`.
  static func timestamp(_ date: Date) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = "yyyy-MM-dd HH:mm 'UTC'"
    return formatter.string(from: date)
  }
}
