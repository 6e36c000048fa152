import Foundation
import SNMNetwork
import SNMWire

extension SessionManager {
  /// Refreshes `held`, or joins the refresh already under way in this process.
  ///
  /// `rejectedToken` is the access token the server just refused (a forced refresh): the policy
  /// is skipped, and a session whose token differs from it is good enough.
  func refresh(from held: SupabaseSession, rejectedToken: String?) async -> Result<
    SupabaseSession, SupabaseSessionError
  > {
    if let inFlightRefresh {
      joinedRefreshes += 1
      return await inFlightRefresh.value
    }
    // Shared by every caller, so it never blocks one caller's thread for its exchange.
    let task = Task {
      await ExchangeThread.$mayBlockCaller.withValue(false) {
        await self.performRefresh(held: held, rejectedToken: rejectedToken)
      }
    }
    inFlightRefresh = task
    let result = await task.value
    inFlightRefresh = nil
    return result
  }

  /// One refresh under the store's lock: re-reads the stored session first, and uses it when
  /// another process refreshed meanwhile, so a refresh token is never spent twice. A session no
  /// longer the file's (``detached``) is refreshed in memory, the file neither read nor written.
  private func performRefresh(held: SupabaseSession, rejectedToken: String?) async -> Result<
    SupabaseSession, SupabaseSessionError
  > {
    guard let project, let auth else { return .failure(.notConfigured) }
    if detached { return await exchange(held, auth: auth, project: project, filed: false) }
    let lock: SessionLock?
    do {
      lock = try await takeLock()
    } catch {
      switch error {
      case .lockTimeout(let path): return .failure(.lockTimeout(path: path))
      // A lock file that cannot be created (read-only directory): refresh unlocked.
      case .unwritable, .unreadable, .damaged, .otherProject, .refusedFolder, .endedByServer:
        lock = nil
      }
    }
    defer { release(lock) }

    var candidate = held
    // Whether the refreshed session is kept in the file: not where another user's is there now,
    // nor where a `logout` elsewhere removed this process's.
    var keep = true
    var removedElsewhere = false
    var problem: SessionStoreError?
    let stored = loadStored(problem: &problem)
    if let stored { inFile = stored.user.id == held.user.id }
    if let stored, stored.user.id != held.user.id {
      // Another user signed in elsewhere on the file this run shares: taking their session
      // carried a script on as them without a word. A script stops; the prompt stays signed in
      // as it was, as a psql connection stays its user's whoever connects in another terminal,
      // its session kept in memory (the file stays theirs, for the next snm).
      let path = store.path(project: project)
      if requiresStored {
        return .failure(
          .otherUserSignedIn(path: path, held: held.user.named, stored: stored.user.named))
      }
      keep = false
      detached = true
      if warnedOtherUsers.insert(stored.user.id).inserted {
        warn(
          VisibleTextLine.escaped(
            "the saved session \(path) now holds the session of \(stored.user.named), who signed "
              + "in elsewhere: this shell stays signed in as \(held.user.named), its session "
              + "kept in memory until it ends ('login' here to save one again); a new snm starts "
              + "as \(stored.user.named)"))
      }
    } else if stored == nil, problem == nil, inFile {
      // Gone since this process read or wrote its session there: a `logout` elsewhere (its own
      // user's ends the session on the server too, and the refresh below fails). The file is the
      // last sign-in's, signed out now: writing this session back signed the next snm in again.
      keep = false
      removedElsewhere = true
    } else if let stored, stored.refreshToken != held.refreshToken,
      stored.obtainedAt >= held.obtainedAt
    {
      candidate = stored
      let usable =
        rejectedToken.map { stored.accessToken != $0 && stored.timeLeft(now: now()) > 0 }
        ?? !policy.needsRefresh(stored, now: now())
      if usable {
        current = stored
        return .success(stored)
      }
    }

    let result = await exchange(candidate, auth: auth, project: project, filed: keep)
    if removedElsewhere, case .success(let fresh) = result {
      detached = true
      warn(
        VisibleTextLine.escaped(
          "the saved session \(store.path(project: project)) was removed (a 'logout' elsewhere) "
            + "since this \(requiresStored ? "run" : "shell") read it: it stays signed in as "
            + "\(fresh.user.named), its session kept in memory until it ends ('login' here to "
            + "save one again); a new snm starts signed out"))
    }
    return result
  }

  /// Spends `candidate`'s refresh token: the fresh session is the current one, and the file's
  /// when `filed`. A session the server ended is gone; its file, if `filed` and it still holds
  /// that session, becomes the mark that the server ended it.
  private func exchange(
    _ candidate: SupabaseSession, auth: any AuthManageable, project: String, filed: Bool
  ) async -> Result<SupabaseSession, SupabaseSessionError> {
    do {
      var fresh = try await auth.refreshSession(refreshToken: candidate.refreshToken)
      fresh.obtainedAt = now()
      current = fresh
      if filed, persist(fresh, project: project) { inFile = true }
      return .success(fresh)
    } catch let error as SupabaseAuthError where error.endsSession {
      // The stored session, if it is still the one the server refused, makes way for the mark
      // that the server ended it: a later run says so (and a script fails) until a sign-in or
      // `logout`, rather than going on signed out as if no one had signed in. A file gone (a
      // `logout` elsewhere removed it: the server refused for that) or holding another session
      // gets no mark: the sign-out was the user's.
      current = nil
      if filed, loadStored()?.refreshToken == candidate.refreshToken {
        do {
          try store.markEnded(project: project, code: error.code.rawValue, date: now())
          // The rest of this run as the next: a script's later requests fail alike.
          _ = loadStored(problem: &storedProblem)
        } catch {
          if case .refusedFolder = error {} else { warn(error.description) }
        }
      }
      return .failure(.endedByServer(error.code))
    } catch let error as SupabaseAuthError {
      return .failure(.refreshFailed(error))
    } catch {
      return .failure(.unreachable(String(describing: error)))
    }
  }

  /// A token to replace `rejected`, which the server refused as expired: the current one if it
  /// already differs (another caller refreshed), else a forced refresh.
  func replacement(forRejected rejected: String) async throws(SupabaseSessionError) -> String {
    restoreIfNeeded()
    guard let session = current else { throw .signedOut }
    if session.accessToken != rejected { return session.accessToken }
    return try await refresh(from: session, rejectedToken: rejected).get().accessToken
  }
}

extension SessionManager {
  /// `session refresh`: a new access token now, however long the current one has left (after an
  /// MFA enrolment elsewhere, or to pick up changed claims).
  ///
  /// ```swift
  /// let fresh = try await SessionManager.shared.refreshNow().get()
  /// ```
  public func refreshNow() async -> Result<SupabaseSession, SupabaseSessionError> {
    guard project != nil, auth != nil else { return .failure(.notConfigured) }
    restoreIfNeeded()
    guard let session = current else { return .failure(.signedOut) }
    return await refresh(from: session, rejectedToken: session.accessToken)
  }
}
