import SNMSupabase

extension StatementExecutor {
  /// The bearer token for the REST requests of the statements: the session's access token,
  /// refreshed first when it is about to expire; nil when signed out (the provider then sends the
  /// project's key). Hand it to `SupabaseDBManager` as its access-token closure.
  ///
  /// ```swift
  /// let db = SupabaseDBManager(config: project.supabaseConfig, accessToken: shell.accessTokenProvider)
  /// ```
  var accessTokenProvider: @Sendable () async throws -> String? {
    { [sessions] in try await sessions.requestToken() }
  }

  /// Runs `request` (which takes its token from ``accessTokenProvider``); when the server refuses
  /// it because the JWT expired, refreshes the session and runs it once more.
  ///
  /// ```swift
  /// let response = try await withSession { try await db.request(builder) }
  /// ```
  /// - Throws: what `request` throws, or `SupabaseSessionError` when the session cannot be
  ///   refreshed (print it with `StatementExecutor.describe`; it is an authentication failure, exit code 3).
  func withSession<T: Sendable>(_ request: @Sendable () async throws -> T) async throws -> T {
    try await sessions.retryingAfterRefresh(request)
  }
}
