import Foundation
import SNMNetwork
import SNMSupabase

/// A server error as the shell prints it: code and status, message, details, hint, and a line of
/// advice for the errors people meet most.
///
/// ```
/// error 42501 (HTTP 401): new row violates row-level security policy for table "dog_profile"
///   details: ...
///   hint: ...
///   advice: the request ran as anon (no one signed in): `login`, or check the table's policies
/// ```
struct ServerErrorReport {
  /// Who the request ran as: the key's role (`anon`) or a user's name, for the RLS advice.
  let role: String
  let signedIn: Bool
  /// Whether the project is the local one (a 429's advice says how to raise its limit).
  var local = false
  /// Whether the request went `as service`, with the service key: a refused key is that one.
  var asService = false

  /// The lines for `error`, each ending in a newline. What the server wrote (code, message,
  /// details, hint, a body that is not JSON) has its control characters escaped (``VisibleText``).
  func render(_ error: SNMServerError) -> String {
    let shown = { (text: String) in VisibleText.escaped(text) }
    var head = "error"
    if let code = error.code { head += " \(shown(code.rawValue))" }
    if let storage = error.storageStatusCode, storage != error.status {
      head += " (storage \(storage), HTTP \(error.status))"
    } else {
      head += " (HTTP \(error.status))"
    }
    var text = head + ": " + shown(error.message ?? Self.bodyExcerpt(error)) + "\n"
    if let details = error.detailsText, !details.isEmpty {
      text += "  details: \(shown(details))\n"
    }
    if let hint = error.hint, !hint.isEmpty { text += "  hint: \(shown(hint))\n" }
    if let early = error.response.earlyAnswer { text += "  note: \(early.described)\n" }
    if let advice = advice(for: error) { text += "  advice: \(advice)\n" }
    return text
  }

  /// One line saying what to do, for the common errors; nil for the rest.
  func advice(for error: SNMServerError) -> String? {
    if error.status == 502 || error.status == 504, let applied = error.effect.mayHaveApplied {
      return "a gateway in front of the project had no answer from it (HTTP \(error.status)): "
        + applied
    }
    if error.status == 429 {
      return RateLimitAdvice(
        path: URLComponents(string: error.response.url)?.path, code: error.code?.rawValue,
        retryAfter: error.response.headers["Retry-After"], local: local
      ).text
    }
    switch error.code {
    case .insufficientPrivilege?:
      return signedIn
        ? "the request ran as \(role) (role authenticated): the table's grants or row-level "
          + "security policies refuse this; `session show` says who you are"
        : "the request ran as \(role) (no one signed in): `login` to act as a user, or check the "
          + "table's grants and row-level security policies"
    case .notOneRow?:
      return "`single` wants exactly one row: add `limit 1`, narrow the `where`, "
        + "or drop `single` (`maybe single` allows none)"
    case .tableNotFound?, .undefinedTable?:
      return "`tables` lists the tables and views this project exposes"
    case .columnNotFound?, .undefinedColumn?:
      return "`describe TABLE` lists its columns"
    case .relationshipNotFound?, .ambiguousRelationship?:
      return "`describe TABLE` shows its foreign keys; name one with `rel!fkey(...)`"
    case .functionNotFound?, .undefinedFunction?:
      return "check the function's name and argument names (`help rpc`)"
    case .uniqueViolation?:
      return "a row with this key exists: `upsert ... on conflict COLUMN` updates it instead"
    case .foreignKeyViolation?:
      return "the row it references does not exist (or is not visible to \(role))"
    case .invalidJWT?, .jwtClaimsInvalid?:
      return "the session token was refused: `session check` refreshes it, `login` starts anew"
    case "AccessDenied"?:
      return "Storage ran this as \(role)\(signedIn ? "" : " (no one signed in)"): the bucket's "
        + "row-level security policies on storage.objects refuse it"
    case "NoSuchKey"?:
      return "no such object, or its policies hide it from \(role): `storage ls BUCKET/FOLDER` "
        + "lists what you may see"
    case "NoSuchBucket"?:
      return "`storage buckets` lists the buckets \(role) may see"
    case "InvalidMimeType"?, "EntityTooLarge"?:
      return "the bucket limits its objects' type and size: `storage buckets` shows them"
    case .invalidTextRepresentation?:
      return "a value does not fit the column's type; for NULL write `is null`"
    default:
      guard error.status == 401 && error.code == nil else { return nil }
      return asService
        ? "\(FailureHeadline.refusedServiceKey): check --service-key, SUPABASE_SERVICE_ROLE_KEY "
          + "or SUPABASE_SECRET_KEY (or the profile's service_key)"
        : "\(FailureHeadline.refusedKey): check --key, or SUPABASE_PUBLISHABLE_KEY (or the first "
          + "of SUPABASE_ANON_KEY, SUPABASE_SECRET_KEY, SUPABASE_SERVICE_ROLE_KEY set, or the "
          + "profile's key)"
    }
  }

  /// The line of advice for a sign-in or sign-up the Auth server refused because of one of the
  /// project's settings (hosted projects' defaults differ from the local project's): which
  /// setting, and how a script gets a user anyway. Nil for other refusals.
  static func signInAdvice(for error: SupabaseAuthError) -> String? {
    switch error.code {
    case .anonymousProviderDisabled:
      return "anonymous sign-ins are off on this project: sign in with `login email ...`, or make "
        + "a confirmed user with `admin create user email '...' password '...' confirmed` (the "
        + "service key); the local project turns them on with `snm local restart --anonymous`"
    case .emailNotConfirmed:
      return "email confirmation is on: confirm the address first (the mailed link or code; the "
        + "local project's `inbox`), or make confirmed users with `admin create user ... "
        + "confirmed` (the service key)"
    case .signupDisabled:
      return "sign-ups are off on this project: make users with `admin create user ... "
        + "confirmed` (the service key)"
    default:
      return nil
    }
  }

  /// What `signup` says when the project answers with a user and no session.
  static let signedUpUnconfirmed =
    "signed up; email confirmation is on, so no one is signed in: confirm the email, then "
    + "`login email ...` (a script makes confirmed users with `admin create user ... confirmed`, "
    + "the service key)"

  static func bodyExcerpt(_ error: SNMServerError) -> String {
    let body = error.response.text.trimmingCharacters(in: .whitespacesAndNewlines)
    if body.isEmpty { return "no message" }
    return body.count > 200 ? String(body.prefix(200)) + "..." : body
  }
}
