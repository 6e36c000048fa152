/// Which sessions `logout` ends on the server (GoTrue's `/logout?scope=`).
///
/// ```swift
/// try await auth.signOut(accessToken: token, scope: .local)
/// ```
public enum SignOutScope: String, Sendable, Hashable, CaseIterable {
  /// Every session of the user (GoTrue's default).
  case global
  /// Only this session.
  case local
  /// Every session but this one; this client stays signed in.
  case others
}
