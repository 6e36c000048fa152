import Foundation
import SNMWire

/// The app-wide session of one project: restores it from the store, hands out valid access
/// tokens, refreshes them (once at a time, shared by concurrent callers and, through the store's
/// lock, by other snm processes), and signs out when the server says the session is gone.
///
/// ```swift
/// await SessionManager.shared.configure(project: url, auth: SupabaseAuthManager(config: config))
/// await SessionManager.shared.saveSession(for: try await authManager.signInAnonymously())
/// let rows = try await SessionManager.shared.authorized { token in try await send(token) }
/// ```
/// Tests build their own instances with the package-level init (store, auth client, clock).
/// Problems that do not stop the work (an unreadable session file, a failed save) go to `warn`.
public actor SessionManager: SessionManageable {
  /// The session of the project snm is talking to; `configure` it before use.
  public static let shared = SessionManager()

  var project: String?
  /// Marks of the project's known keys (`ProjectSelection.sessionKeyMarks`): a stored session
  /// whose marks share none is another project's served at the same URL before.
  var keyMarks: Set<String> = []
  var store: any SessionStore
  var auth: (any AuthManageable)?
  var warn: @Sendable (String) -> Void
  let now: @Sendable () -> Date
  /// When to refresh.
  public let policy: SessionRefreshPolicy
  /// Tells a request's failure "the access token expired" (PGRST303, PGRST301 "JWT expired").
  let isExpiredJWT: @Sendable (any Error) -> Bool

  /// The session in use; nil when signed out.
  var current: SupabaseSession?
  /// Whether `current` was loaded from the store yet.
  var restored = false
  /// The refresh under way, which every caller that needs one meanwhile awaits.
  var inFlightRefresh: Task<Result<SupabaseSession, SupabaseSessionError>, Never>?
  /// How many callers joined a refresh already under way (tests watch it).
  var joinedRefreshes = 0
  /// Unreadable files already warned about (one warning per file and process).
  var warnedPaths: Set<String> = []
  /// Whether this process holds the store's lock now (``takeLock()``): a damaged file read
  /// meanwhile is removed at once, as no other process writes the file while it is held.
  var holdsLock = false
  /// Users whose sign-in elsewhere on the shared file the prompt was told of (once each).
  var warnedOtherUsers: Set<UUID> = []
  /// Whether the file held this process's session when it last read or wrote it (restored from
  /// it, saved or refreshed there): gone at a refresh, a `logout` elsewhere removed it.
  var inFile = false
  /// Whether the session in memory is no longer the file's: another user signed in on the file,
  /// or a `logout` elsewhere removed it, after this process read or wrote it. The file is the last
  /// sign-in's: until one here (``saveSession(for:)``) a refresh neither reads nor writes it and
  /// `logout` leaves it, as a psql connection keeps its user whoever connects elsewhere.
  var detached = false
  /// A damaged file the prompt's restore left because another snm held the lock: its path and
  /// what is wrong. The next use of the session tries again (``removeDamagedLeft()``).
  var damagedLeft: (path: String, reason: String)?
  /// Whether a request that would go signed out because the stored session could not be used
  /// fails instead (scripts, `-c`, pipes: a CI job that signs in through the stored session must
  /// not pass on anon's empty answers). At the prompt it goes signed out after the warning.
  var requiresStored = false
  /// Why the stored session could not be used, until a sign-in or a sign-out replaces it.
  var storedProblem: SessionStoreError?

  init() {
    self.init(
      project: nil, store: FileSessionStore(directory: FileSessionStore.defaultDirectory()),
      auth: nil)
  }

  /// A manager with its own store, auth client and clock (tests; several projects at once).
  package init(
    project: String?, keyMarks: Set<String> = [], store: any SessionStore,
    auth: (any AuthManageable)?,
    now: @escaping @Sendable () -> Date = { Date() },
    policy: SessionRefreshPolicy = SessionRefreshPolicy(),
    isExpiredJWT: @escaping @Sendable (any Error) -> Bool = SessionManager.isExpiredJWTError,
    warn: @escaping @Sendable (String) -> Void = SessionManager.warnOnStandardError
  ) {
    self.project = project
    self.keyMarks = keyMarks
    self.store = store
    self.auth = auth
    self.now = now
    self.policy = policy
    self.isExpiredJWT = isExpiredJWT
    self.warn = warn
  }

  /// Points the manager at `project` (its URL), known by `keyMarks` (SHA-256 marks of its keys),
  /// with the auth client that talks to it. Forgets the session in memory; the stored one is
  /// restored on next use.
  /// With `requiresStored`, a stored session that cannot be used fails the requests that would go
  /// signed out in its place (``SupabaseSessionError/storedUnusable(_:)``).
  public func configure(
    project: String, keyMarks: Set<String> = [], auth: any AuthManageable,
    store: (any SessionStore)? = nil, warn: (@Sendable (String) -> Void)? = nil,
    requiresStored: Bool = false
  ) {
    self.project = project
    self.keyMarks = keyMarks
    self.auth = auth
    if let store { self.store = store }
    if let warn { self.warn = warn }
    self.requiresStored = requiresStored
    current = nil
    restored = false
    storedProblem = nil
    inFile = false
    detached = false
    damagedLeft = nil
  }

  /// Writes `snm: warning: message` to standard error.
  public static let warnOnStandardError: @Sendable (String) -> Void = { message in
    StandardStreams.writeError("snm: warning: \(message)\n")
  }

  public var userID: Result<UUID, SupabaseSessionError> {
    guard project != nil else { return .failure(.notConfigured) }
    restoreIfNeeded()
    guard let current else { return .failure(.signedOut) }
    return .success(current.user.id)
  }

  public var accessToken: Result<String, SupabaseSessionError> {
    get async { await checkSession().map(\.accessToken) }
  }

  /// The session in memory (restored from the store on first use), without refreshing.
  public var currentSession: SupabaseSession? {
    restoreIfNeeded()
    return current
  }

  /// Why the stored session could not be used (restored first), until a sign-in or a sign-out
  /// replaces it; nil when there was none or it is in use.
  public var storedSessionProblem: SessionStoreError? {
    restoreIfNeeded()
    return storedProblem
  }

  /// Why requests fail rather than go signed out (``requestToken()`` throws
  /// ``SupabaseSessionError/storedUnusable(_:)``): the stored session could not be used, and this
  /// run (a script, `-c`, a pipe) may not go on signed out in its place; nil where it may.
  public var storedSessionStopsRequests: SessionStoreError? {
    restoreIfNeeded()
    return requiresStored ? storedProblem : nil
  }

  public func restoreSession() -> SupabaseSession? {
    restore()
    return current
  }

  /// A sign-in here: the session in use, and the file's (the last sign-in's), whoever held it.
  public func saveSession(for session: SupabaseSession) async {
    current = session
    restored = true
    storedProblem = nil
    detached = false
    damagedLeft = nil
    guard let project else { return }
    let lock = try? await takeLock()
    defer { release(lock) }
    inFile = persist(session, project: project)
  }

  /// Takes the store's lock for the project (``holdsLock`` says so until ``release(_:)``).
  func takeLock() async throws(SessionStoreError) -> SessionLock? {
    guard let project else { return nil }
    let lock = try await store.lock(project: project)
    holdsLock = true
    return lock
  }

  /// Releases what ``takeLock()`` took.
  func release(_ lock: SessionLock?) {
    guard let lock else { return }
    holdsLock = false
    lock.unlock()
  }

  public func checkSession() async -> Result<SupabaseSession, SupabaseSessionError> {
    guard project != nil, auth != nil else { return .failure(.notConfigured) }
    restoreIfNeeded()
    guard let session = current else { return .failure(.signedOut) }
    if !policy.needsRefresh(session, now: now()) { return .success(session) }
    return await refresh(from: session, rejectedToken: nil)
  }

  // MARK: - Store access

  func restoreIfNeeded() {
    if !restored {
      restore()
    } else if damagedLeft != nil {
      removeDamagedLeft()
    }
  }

  /// Takes the stored session as the current one, keeping why it could not be used.
  func restore() {
    var problem: SessionStoreError?
    current = loadStored(problem: &problem)
    inFile = current != nil
    // Another project's session (no key mark in common) is no session here, not a damaged one:
    // a run with a key the file has no mark of (`--key` with the service key) is that too.
    if case .otherProject = problem { problem = nil }
    storedProblem = problem
    restored = true
    // At the prompt, which goes on signed out, the end is said (once a process); a script's
    // request fails with it instead (``SupabaseSessionError/storedUnusable(_:)``).
    if !requiresStored, let problem, case .endedByServer(let path, _, _) = problem,
      warnedPaths.insert(path).inserted
    {
      warn("\(problem); meanwhile requests go signed out ('logout' to go on so unwarned)")
    }
  }

  /// The stored session; an unreadable file is reported once and counts as signed out.
  func loadStored() -> SupabaseSession? {
    var problem: SessionStoreError?
    return loadStored(problem: &problem)
  }

  /// ``loadStored()``, with why there is none when a file could not be used. A file that holds
  /// no session is removed where the run goes on signed out (the prompt: said once, not met again
  /// on every start), under the lock and only if it still holds none then
  /// (``SessionStore/removeDamaged(project:)``: a `login` landing meanwhile stays); with
  /// `requiresStored` (a script) it stays, so every run fails on it until `login` replaces it or
  /// `logout` removes it (``goOnSignedOut()``): removed by the first failing run, the next one
  /// went on as anon and passed.
  func loadStored(problem: inout SessionStoreError?) -> SupabaseSession? {
    guard let project else { return nil }
    do {
      return try store.load(project: project, keyMarks: keyMarks)
    } catch {
      var error = error
      if case .damaged(let path, let reason) = error, !requiresStored {
        // Read under this process's lock: still damaged. Else under the lock, if it is free.
        let removal =
          holdsLock
          ? (try? store.delete(project: project)).map { DamagedRemoval.removed }
          : try? store.removeDamaged(project: project)
        switch removal {
        case .removed?: error = .damaged(path: path, reason: reason + "; removed")
        case .lockHeld?:
          error = .damaged(path: path, reason: reason + "; not removed: another snm holds its lock")
          damagedLeft = (path, reason)
        case .replaced?:
          // A sign-in elsewhere replaced it meanwhile: that is the stored session.
          do {
            return try store.load(project: project, keyMarks: keyMarks)
          } catch let again {
            error = again
          }
        case nil: break
        }
      }
      problem = error
      switch error {
      case .unreadable(let path, _), .damaged(let path, _):
        if warnedPaths.insert(path).inserted { warn(error.description) }
      default: break
      }
      return nil
    }
  }

  /// The damaged file the restore left while another snm held the lock (``damagedLeft``), tried
  /// again: removed under the lock when it is free, and only if still damaged (said, as the next
  /// start would); one a sign-in elsewhere replaced meanwhile is theirs, left, and this process
  /// stays signed out as it said. While the lock is held still, the next use tries again.
  func removeDamagedLeft() {
    guard let left = damagedLeft, let project else { return }
    do {
      switch try store.removeDamaged(project: project) {
      case .lockHeld: return
      case .removed:
        let problem = SessionStoreError.damaged(path: left.path, reason: left.reason + "; removed")
        storedProblem = problem
        warn(problem.description)
      case .replaced: storedProblem = nil
      }
    } catch {
      if case .refusedFolder = error {} else { warn(error.description) }
    }
    damagedLeft = nil
  }

  /// Stores `session`, true when it was; a failure is a warning (the session still works in
  /// this process), but for a refused folder, said once already.
  @discardableResult
  func persist(_ session: SupabaseSession, project: String) -> Bool {
    do {
      try store.save(session, project: project, keyMarks: keyMarks)
      return true
    } catch {
      if case .refusedFolder = error { return false }
      warn(error.description)
      return false
    }
  }
}
