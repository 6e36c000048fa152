import Foundation

extension SessionManager {
  /// `logout` with no session in use: a stored session that could not be used no longer stops
  /// requests (``SupabaseSessionError/storedUnusable(_:)``), as its message says: the user chose
  /// to go on signed out. A file that keeps later runs from going on signed out (one that holds
  /// no session, the mark that the server ended the session) is removed, when it is still there
  /// (another process may have signed in meanwhile), so later runs go on signed out too.
  public func goOnSignedOut() async {
    restoreIfNeeded()
    if Self.staysUntilLogout(storedProblem), let project {
      let lock = try? await takeLock()
      defer { release(lock) }
      var problem: SessionStoreError?
      _ = loadStored(problem: &problem)
      if Self.staysUntilLogout(problem) {
        do {
          try store.delete(project: project)
        } catch {
          warn(error.description)
        }
      }
    }
    storedProblem = nil
  }

  /// Whether `problem` is a file kept until a sign-in or `logout` replaces it: one that holds no
  /// session (a script's run leaves it), or the mark that the server ended the session.
  static func staysUntilLogout(_ problem: SessionStoreError?) -> Bool {
    switch problem {
    case .damaged?, .endedByServer?: true
    default: false
    }
  }

  /// Ends the session: for `.global` and `.local` the stored session is deleted first, then the
  /// server is told; `.others` only tells the server. Without a session, nothing is sent.
  ///
  /// ```swift
  /// try await SessionManager.shared.signOut(scope: .local)
  /// ```
  /// The server's 401/403/404 (the session is already gone there) are not errors.
  /// - Throws: the auth client's error when the server could not be told; the local session is
  ///   deleted all the same.
  public func signOut(scope: SignOutScope = .global) async throws {
    guard let project, let auth else { throw SupabaseSessionError.notConfigured }
    restoreIfNeeded()
    // Signed out on purpose: a stored session that could not be used no longer stops requests.
    if scope != .others { await goOnSignedOut() }
    guard var session = current else { return }
    if policy.needsRefresh(session, now: now()) {
      switch await refresh(from: session, rejectedToken: nil) {
      case .success(let fresh): session = fresh
      case .failure(.endedByServer):
        // Already ended: the mark that says so goes too, for the user chose to be signed out.
        if scope != .others { await goOnSignedOut() }
        return
      case .failure: break
      }
    }
    if scope != .others {
      current = nil
    }
    // A file no longer this session's (``detached``) is the last sign-in's: left as it is.
    if scope != .others, !detached {
      let lock = try? await takeLock()
      defer { release(lock) }
      // Another user's sign-in elsewhere since (the prompt stayed signed in as it was) is theirs.
      if loadStored().map({ $0.user.id == session.user.id }) ?? true {
        do {
          try store.delete(project: project)
        } catch {
          warn(error.description)
        }
      }
    }
    do {
      try await auth.signOut(accessToken: session.accessToken, scope: scope)
    } catch let error as SupabaseAuthError where [401, 403, 404].contains(error.status) {
      return
    }
  }
}
