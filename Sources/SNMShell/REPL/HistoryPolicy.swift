/// Decides which statements the history may keep: never one that carries a secret.
///
/// ```swift
/// HistoryPolicy.mayRecord("from user_info select *")                  // true
/// HistoryPolicy.mayRecord("login email 'a@b.c' password 'hunter2'")   // false
/// ```
/// The check is lexical and errs on the side of forgetting: any statement that mentions a
/// password, a token, a key or a secret, or holds something shaped like a JWT or a
/// Supabase secret key is left out.
public enum HistoryPolicy {
  /// Words that mark a statement as carrying a secret, compared case-insensitively.
  static let secretWords = [
    "password", "passwd", "token", "secret", "apikey", "api_key", "bearer", "service_role",
    "--key", "sb_secret_", "sb_publishable_", "nonce", "--service-key",
  ]
  /// Statements that carry a code or a factor's secret whatever their words: `verify otp ...`,
  /// `mfa verify ...`.
  static let secretStatements = ["verify ", "mfa verify "]

  /// Whether `statement` may be written to the history.
  public static func mayRecord(_ statement: String) -> Bool {
    let trimmed = statement.trimmingCharacters(in: .whitespacesAndNewlines)
    if trimmed.isEmpty { return false }
    let lower = trimmed.lowercased()
    if secretWords.contains(where: { lower.contains($0) }) { return false }
    if secretStatements.contains(where: { lower.hasPrefix($0) }) { return false }
    if containsJWT(trimmed) { return false }
    return true
  }

  /// A JWT is three base64url parts joined by dots, the first starting `eyJ` (`{"`).
  static func containsJWT(_ text: String) -> Bool {
    for word in text.split(whereSeparator: { !isBase64URL($0) && $0 != "." }) {
      let parts = word.split(separator: ".", omittingEmptySubsequences: false)
      if parts.count == 3, parts[0].hasPrefix("eyJ"), parts.allSatisfy({ $0.count >= 2 }) {
        return true
      }
    }
    return false
  }

  private static func isBase64URL(_ c: Character) -> Bool {
    c.isASCII && (c.isLetter || c.isNumber || c == "-" || c == "_")
  }
}
