import Foundation

extension SessionManager {
  /// `logout` with no session in use: a stored session that could not be used no longer stops
  /// requests (``SupabaseSessionError/storedUnusable(_:)``), as its message says: the user chose
  /// to go on signed out. The mark that the server ended the session is deleted (when it is still
  /// there: another process may have signed in meanwhile), so later runs go on signed out too.
  public func goOnSignedOut() async {
    restoreIfNeeded()
    if case .endedByServer? = storedProblem, let project {
      let lock = try? await store.lock(project: project)
      defer { lock?.unlock() }
      var problem: SessionStoreError?
      _ = loadStored(problem: &problem)
      if case .endedByServer? = problem {
        do {
          try store.delete(project: project)
        } catch {
          warn(error.description)
        }
      }
    }
    storedProblem = nil
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
    if scope != .others { storedProblem = nil }
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
      let lock = try? await store.lock(project: project)
      defer { lock?.unlock() }
      do {
        try store.delete(project: project)
      } catch {
        warn(error.description)
      }
    }
    do {
      try await auth.signOut(accessToken: session.accessToken, scope: scope)
    } catch let error as SupabaseAuthError where [401, 403, 404].contains(error.status) {
      return
    }
  }
}
