import SNMGateway

/// Every SQL statement Auth sends about users, sessions, refresh tokens, factors and wrong
/// guesses, as named operations on one connection; handlers are request -> store call -> GoTrue
/// answer. The store runs inside its caller's transaction (`AuthGateway.inTransaction`, as the
/// pool's own user) and never commits; values enter SQL only as parameters.
///
/// ```swift
/// try gateway.inTransaction { connection in
///   let store = AuthStore(connection)
///   guard let user = try store.user(email: "ann@example.com") else { ... }
///   let session = try store.createSession(userID: user.id, method: "password", at: now)
/// }
/// ```
/// Every operation throws `PGError` when Postgres refuses a statement.
struct AuthStore: AuthSQLStore {
  let connection: PGConnection

  /// `column` as GoTrue writes a time: UTC, microseconds, `Z`.
  static func iso(_ column: String) -> String {
    "to_char(\(column) at time zone 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.US\"Z\"')"
  }
}
