import Foundation
import Synchronization

@testable import SNMSupabase

/// An Auth server stand-in for unit tests of the session layer: issues numbered tokens, counts
/// refreshes, and can hold refreshes at a gate or answer them with an error.
final class FakeAuth: AuthManageable {
  struct State {
    var issued = 0
    var refreshes: [String] = []
    var signOuts: [(token: String, scope: SignOutScope)] = []
    var refreshError: (any Error)?
    var signOutError: (any Error)?
  }

  let state = Mutex(State())
  let clock: TestClock
  let lifetime: TimeInterval
  let gate: Gate?
  let userID = UUID()

  init(clock: TestClock, lifetime: TimeInterval = 3600, gate: Gate? = nil) {
    self.clock = clock
    self.lifetime = lifetime
    self.gate = gate
  }

  var refreshCount: Int { state.withLock { $0.refreshes.count } }
  var refreshedTokens: [String] { state.withLock { $0.refreshes } }

  func failRefreshes(with error: (any Error)?) {
    state.withLock { $0.refreshError = error }
  }

  func issue() -> SupabaseSession {
    let number = state.withLock { state -> Int in
      state.issued += 1
      return state.issued
    }
    let now = clock.now
    return SupabaseSession(
      accessToken: "access-\(number)", refreshToken: "refresh-\(number)", expiresIn: lifetime,
      expiresAt: now.addingTimeInterval(lifetime), obtainedAt: now,
      user: SupabaseUser(id: userID, isAnonymous: true))
  }

  func signInAnonymously() async throws -> SupabaseSession { issue() }
  func signIn(email: String, password: String) async throws -> SupabaseSession { issue() }
  func signUp(email: String, password: String) async throws -> SupabaseSession { issue() }

  func refreshSession(refreshToken: String) async throws -> SupabaseSession {
    let error = state.withLock { state -> (any Error)? in
      state.refreshes.append(refreshToken)
      return state.refreshError
    }
    if let gate { await gate.wait() }
    if let error { throw error }
    return issue()
  }

  func signOut(accessToken: String, scope: SignOutScope) async throws {
    let error = state.withLock { state -> (any Error)? in
      state.signOuts.append((accessToken, scope))
      return state.signOutError
    }
    if let error { throw error }
  }

  func user(accessToken: String) async throws -> SupabaseUser {
    SupabaseUser(id: userID, isAnonymous: true)
  }
}

/// Collects the manager's warnings.
final class Warnings: Sendable {
  private let lines = Mutex<[String]>([])
  var all: [String] { lines.withLock { $0 } }
  var function: @Sendable (String) -> Void { { [self] line in lines.withLock { $0.append(line) } } }
}

/// A fresh directory under the system's temporary directory, removed by `remove()`.
struct TemporaryDirectory {
  let path: String

  init() throws {
    path = NSTemporaryDirectory() + "snm-session-tests-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  }

  func remove() {
    try? FileManager.default.removeItem(atPath: path)
  }
}

/// One project's test rig: a file store in a temporary directory, a fake auth server, a clock.
struct Rig {
  static let project = "http://127.0.0.1:54399"
  let directory: TemporaryDirectory
  let clock: TestClock
  let auth: FakeAuth
  let warnings = Warnings()
  let store: FileSessionStore

  init(lifetime: TimeInterval = 3600, gate: Gate? = nil) throws {
    directory = try TemporaryDirectory()
    clock = TestClock()
    auth = FakeAuth(clock: clock, lifetime: lifetime, gate: gate)
    store = FileSessionStore(directory: directory.path + "/state/snm")
  }

  /// A manager of this rig (call twice for two "processes" sharing the session file).
  func manager(auth: FakeAuth? = nil) -> SessionManager {
    SessionManager(
      project: Self.project, store: store, auth: auth ?? self.auth, now: clock.function,
      warn: warnings.function)
  }

  var sessionPath: String { store.path(project: Self.project) }

  /// Writes `text` where the session file goes, its folder made first (a corrupt or foreign file).
  func writeSessionFile(_ text: String) throws {
    try FileManager.default.createDirectory(
      atPath: store.directory, withIntermediateDirectories: true)
    try Data(text.utf8).write(to: URL(fileURLWithPath: sessionPath))
  }
}
