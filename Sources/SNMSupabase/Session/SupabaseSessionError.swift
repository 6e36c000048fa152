import SNMWire

/// Why there is no usable session.
///
/// ```swift
/// switch await SessionManager.shared.userID {
/// case .success(let id): ...
/// case .failure(.signedOut): print("not signed in")
/// case .failure(let error): print(error)
/// }
/// ```
/// Messages are lowercase, name no token, and say what to do next.
public enum SupabaseSessionError: Error, Sendable, Hashable {
  /// No session: never signed in, signed out, or the stored one was unreadable.
  case signedOut
  /// The server ended the session (its refresh token is unknown or spent, the session was revoked):
  /// the stored session was replaced by the mark that it ended
  /// (``SessionStoreError/endedByServer(path:code:date:)``).
  case endedByServer(AuthErrorCode)
  /// A refresh was refused for another reason (the session is kept; try again).
  case refreshFailed(SupabaseAuthError)
  /// The Auth server could not be reached or answered with something that is not a session.
  case unreachable(String)
  /// No project is configured for the session manager (a programming error in the caller).
  case notConfigured
  /// Another snm process held the session lock for too long.
  case lockTimeout(path: String)
  /// A stored session is there but cannot be used (damaged, unreadable, another project's, in a
  /// folder others may write in), and a script must not go on signed out in its place.
  case storedUnusable(SessionStoreError)
  /// Another user signed in elsewhere on the session file (`path`) this run shares: it holds
  /// `stored`'s session where this run is signed in as `held` (each named as
  /// ``SupabaseUser/named``). A script, `-c` or a pipe stops rather than go on as that user.
  case otherUserSignedIn(path: String, held: String, stored: String)
}

extension SupabaseSessionError: CustomStringConvertible {
  public var description: String {
    switch self {
    case .signedOut: "not signed in; use 'login' or 'login email ...'"
    case .endedByServer(let code):
      "the session ended on the server (\(code)); sign in again with 'login' (until then, or a "
        + "'logout', scripts fail rather than send requests signed out)"
    case .refreshFailed(let error): "could not refresh the session: \(error)"
    case .unreachable(let reason): "could not refresh the session: \(reason)"
    case .notConfigured: "no project configured for the session"
    case .lockTimeout(let path):
      "another snm process has held the session lock \(path) for too long; try again"
    case .storedUnusable(let problem):
      "\(problem); nothing is sent signed out in its place (run 'logout' first to go on signed out)"
    case .otherUserSignedIn(let path, let held, let stored):
      VisibleTextLine.escaped(
        "the saved session \(path) now holds the session of \(stored), who signed in elsewhere, "
          + "where this run is signed in as \(held): it stops rather than go on as another user "
          + "(runs signed in as different users at once need sessions apart: a script file's "
          + "own, or an XDG_STATE_HOME each)")
    }
  }
}
