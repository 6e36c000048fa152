/// Signs in and out against the Auth server; the session it returns is handed to
/// `SessionManager.shared`, which owns it from then on.
///
/// ```swift
/// let session = try await authManager.signInAnonymously()
/// await SessionManager.shared.saveSession(for: session)
/// ```
/// Every method throws ``SupabaseAuthError`` when the server refuses, `AuthResponseError` when a
/// success answer is not a session, and the transport's error (`SNMNetworkError`) when the server
/// cannot be reached.
public protocol AuthManageable: Sendable {
  /// `POST /auth/v1/signup` with `{}`: a new anonymous user and its session.
  func signInAnonymously() async throws -> SupabaseSession
  /// `POST /auth/v1/token?grant_type=password`.
  func signIn(email: String, password: String) async throws -> SupabaseSession
  /// `POST /auth/v1/signup` with email and password. Throws `AuthResponseError.missingSession`
  /// when the project wants the email confirmed first.
  func signUp(email: String, password: String) async throws -> SupabaseSession
  /// `POST /auth/v1/token?grant_type=refresh_token`: spends `refreshToken`, returns the next session.
  func refreshSession(refreshToken: String) async throws -> SupabaseSession
  /// `POST /auth/v1/logout?scope=...` with the access token (204).
  func signOut(accessToken: String, scope: SignOutScope) async throws
  /// `GET /auth/v1/user`: the user the access token belongs to.
  func user(accessToken: String) async throws -> SupabaseUser
}
