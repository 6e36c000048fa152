import Foundation
import SNMNetwork

extension SessionManager {
  /// The bearer token for a request: the session's access token (refreshed first when it expires
  /// within the margin), or nil when signed out, so the request goes with the API key.
  ///
  /// ```swift
  /// let db = SupabaseDBManager(config: config) { try await SessionManager.shared.requestToken() }
  /// ```
  /// - Throws: ``SupabaseSessionError`` when a session exists but cannot be refreshed (the server
  ///   ended it, the Auth server is unreachable), or, with `requiresStored`, when the stored
  ///   session could not be used (``SupabaseSessionError/storedUnusable(_:)``).
  public func requestToken() async throws(SupabaseSessionError) -> String? {
    guard project != nil, auth != nil else { return nil }
    switch await checkSession() {
    case .success(let session): return session.accessToken
    case .failure(.signedOut):
      // Signed out because the stored session could not be used: a script does not go on as
      // the project's key in its place.
      if let problem = storedSessionStopsRequests { throw .storedUnusable(problem) }
      return nil
    case .failure(let error): throw error
    }
  }

  /// Runs `operation` with the request token; when it fails because the token expired (HTTP 401,
  /// PGRST303 or PGRST301 "JWT expired"), refreshes once and runs it once more.
  ///
  /// ```swift
  /// let response = try await SessionManager.shared.authorized { token in
  ///   try await provider.send(endpoint, accessToken: token)
  /// }
  /// ```
  /// - Throws: what `operation` throws, or ``SupabaseSessionError`` when no valid token can be had.
  public func authorized<T: Sendable>(
    _ operation: @Sendable (String?) async throws -> T
  ) async throws -> T {
    let token = try await requestToken()
    do {
      return try await operation(token)
    } catch  where token != nil && isExpiredJWT(error) {
      guard let token else { throw error }
      let fresh = try await replacement(forRejected: token)
      return try await operation(fresh)
    }
  }

  /// Like ``authorized(_:)`` for an operation that asks for the token itself (through a closure
  /// calling ``requestToken()``, as `SupabaseDBManager` does).
  public func retryingAfterRefresh<T: Sendable>(
    _ operation: @Sendable () async throws -> T
  ) async throws -> T {
    try await authorized { _ in try await operation() }
  }

  /// `true` for a 401 that says the JWT expired: PGRST303 (PostgREST 13+), or PGRST301 with
  /// "JWT expired" (PostgREST 12), or a `WWW-Authenticate` that says so; and Storage's 400 with
  /// statusCode 403 `"exp" claim timestamp check failed`.
  public static let isExpiredJWTError: @Sendable (any Error) -> Bool = { error in
    let server: SNMServerError
    switch error {
    case let failure as SNMServerError: server = failure
    case SNMNetworkError.http(let failure): server = failure
    default: return false
    }
    // Storage says so with HTTP 400, statusCode 403 and jose's words.
    if server.storageStatusCode == 403,
      server.message?.contains("\"exp\" claim timestamp check failed") == true
    {
      return true
    }
    guard server.status == 401 else { return false }
    if server.code == .jwtClaimsInvalid { return true }
    let message = server.message?.lowercased() ?? ""
    let challenge = server.response.headers["WWW-Authenticate"]?.lowercased() ?? ""
    return (server.code == .invalidJWT && message.contains("expired"))
      || challenge.contains("expired")
  }
}
