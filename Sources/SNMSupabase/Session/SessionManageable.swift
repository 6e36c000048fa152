import Foundation

/// The app-wide session: who is signed in and a valid access token, refreshed as needed.
///
/// ```swift
/// let token = try await SessionManager.shared.accessToken.get()
/// if case .success(let id) = await SessionManager.shared.userID { print(id) }
/// ```
/// Results fail with ``SupabaseSessionError``.
public protocol SessionManageable: Sendable {
  /// The signed-in user's id (no network; the stored session is restored on first use).
  var userID: Result<UUID, SupabaseSessionError> { get async }
  /// An access token valid for at least the refresh margin, refreshing first when needed.
  var accessToken: Result<String, SupabaseSessionError> { get async }
  /// Loads the stored session of the configured project (possibly expired); nil when none.
  func restoreSession() async -> SupabaseSession?
  /// Makes `session` the current one and stores it.
  func saveSession(for session: SupabaseSession) async
  /// The current session, refreshed first when it expires within the margin.
  func checkSession() async -> Result<SupabaseSession, SupabaseSessionError>
}
