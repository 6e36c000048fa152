import Foundation
import Testing

@testable import SNMSupabase

@Suite struct SessionRefreshTests {
  @Test func aSessionIsRefreshedOnlyWithin30SecondsOfExpiry() async throws {
    let rig = try Rig(lifetime: 3600)
    defer { rig.directory.remove() }
    let manager = rig.manager()
    let session = rig.auth.issue()
    await manager.saveSession(for: session)

    rig.clock.advance(by: 3600 - 31)
    #expect(try await manager.accessToken.get() == "access-1")
    #expect(rig.auth.refreshCount == 0)

    rig.clock.advance(by: 2)  // 29 s left
    #expect(try await manager.accessToken.get() == "access-2")
    #expect(rig.auth.refreshedTokens == ["refresh-1"])
    // The refreshed session is stored for the next process.
    #expect(try rig.store.load(project: Rig.project)?.refreshToken == "refresh-2")
  }

  @Test func anExpiredSessionIsRefreshedBeforeUse() async throws {
    let rig = try Rig(lifetime: 3600)
    defer { rig.directory.remove() }
    await rig.manager().saveSession(for: rig.auth.issue())
    rig.clock.advance(by: 7200)

    let second = rig.manager()  // a later process
    #expect(await second.restoreSession()?.accessToken == "access-1")
    let checked = try await second.checkSession().get()
    #expect(checked.accessToken == "access-2")
    #expect(checked.timeLeft(now: rig.clock.now) == 3600)
  }

  @Test func aJustIssuedShortLivedTokenIsUsedUntilItsLastSecond() async throws {
    let rig = try Rig(lifetime: 5)
    defer { rig.directory.remove() }
    let manager = rig.manager()
    await manager.saveSession(for: rig.auth.issue())
    rig.clock.advance(by: 3.5)  // 1.5 s left, issued 3.5 s ago: fresh
    #expect(try await manager.accessToken.get() == "access-1")
    rig.clock.advance(by: 1)  // 0.5 s left
    #expect(try await manager.accessToken.get() == "access-2")
    #expect(rig.auth.refreshCount == 1)
  }

  @Test func policyTable() {
    let policy = SessionRefreshPolicy()
    let start = Date(timeIntervalSince1970: 1_000_000)
    func session(lifetime: TimeInterval) -> SupabaseSession {
      SupabaseSession(
        accessToken: "a", refreshToken: "r", expiresIn: lifetime,
        expiresAt: start.addingTimeInterval(lifetime), obtainedAt: start,
        user: SupabaseUser(id: UUID()))
    }
    let hour = session(lifetime: 3600)
    #expect(!policy.needsRefresh(hour, now: start))
    #expect(!policy.needsRefresh(hour, now: start.addingTimeInterval(3570)))
    #expect(policy.needsRefresh(hour, now: start.addingTimeInterval(3570.5)))
    #expect(policy.needsRefresh(hour, now: start.addingTimeInterval(4000)))
    let short = session(lifetime: 20)
    #expect(!policy.needsRefresh(short, now: start.addingTimeInterval(9)))
    #expect(policy.needsRefresh(short, now: start.addingTimeInterval(10)))
  }

  @Test func twoConcurrentCallersShareOneRefreshRequest() async throws {
    let gate = Gate()
    let rig = try Rig(lifetime: 3600, gate: gate)
    defer { rig.directory.remove() }
    let manager = rig.manager()
    await manager.saveSession(for: rig.auth.issue())
    rig.clock.advance(by: 3590)

    async let first = manager.accessToken
    async let second = manager.accessToken
    #expect(await eventually { await gate.arrivals == 1 })
    #expect(await eventually { await manager.joinedRefreshes == 1 })
    await gate.open()
    let tokens = try await [first.get(), second.get()]
    #expect(tokens == ["access-2", "access-2"])
    #expect(rig.auth.refreshCount == 1)
  }

  @Test func twoProcessesSharingTheFileSpendTheRefreshTokenOnce() async throws {
    let gate = Gate()
    let rig = try Rig(lifetime: 3600, gate: gate)
    defer { rig.directory.remove() }
    await rig.manager().saveSession(for: rig.auth.issue())
    let one = rig.manager()
    let two = rig.manager()
    #expect(await one.restoreSession() != nil)
    #expect(await two.restoreSession() != nil)
    rig.clock.advance(by: 3590)

    async let first = one.accessToken
    #expect(await eventually { await gate.arrivals == 1 })  // `one` holds the lock, mid-refresh
    async let second = two.accessToken  // waits for the lock, then re-reads the file
    await gate.open()
    let tokens = try await [first.get(), second.get()]
    #expect(tokens == ["access-2", "access-2"])
    #expect(rig.auth.refreshedTokens == ["refresh-1"])
  }

  @Test func aProcessWithAnOldSessionAdoptsTheOneAnotherProcessStored() async throws {
    let rig = try Rig(lifetime: 3600)
    defer { rig.directory.remove() }
    await rig.manager().saveSession(for: rig.auth.issue())
    let late = rig.manager()
    #expect(await late.restoreSession()?.accessToken == "access-1")
    rig.clock.advance(by: 3590)
    #expect(try await rig.manager().accessToken.get() == "access-2")
    #expect(try await late.accessToken.get() == "access-2")
    #expect(rig.auth.refreshCount == 1)
  }

  /// A process signed in as one user whose file now holds another user's session (a sign-in
  /// elsewhere) took it at its refresh and went on as that user. A script stops, naming both; the
  /// prompt refreshes its own, keeps it in memory and leaves the file as it is, and its `logout`
  /// removes none of the other user's.
  @Test func aRefreshNeverTakesAnotherUsersSession() async throws {
    let rig = try Rig(lifetime: 3600)
    defer { rig.directory.remove() }
    let bob = FakeAuth(clock: rig.clock)
    for requiresStored in [true, false] {
      let alice = rig.manager()
      await alice.configure(project: Rig.project, auth: rig.auth, requiresStored: requiresStored)
      await alice.saveSession(for: rig.auth.issue())
      let other = bob.issue()
      await rig.manager(auth: bob).saveSession(for: other)
      let refreshed = await alice.refreshNow()
      #expect(try rig.store.load(project: Rig.project)?.user.id == bob.userID)
      if requiresStored {
        guard case .failure(.otherUserSignedIn(let path, let held, let stored)) = refreshed else {
          Issue.record("\(refreshed)")
          continue
        }
        #expect(path == rig.sessionPath)
        #expect(held == "anonymous user " + rig.auth.userID.uuidString.lowercased())
        #expect(stored == "anonymous user " + bob.userID.uuidString.lowercased())
      } else {
        #expect(try refreshed.get().user.id == rig.auth.userID)
        #expect(rig.warnings.all.count == 1)
        #expect(rig.warnings.all.last?.contains("this shell stays signed in as") == true)
        _ = await alice.refreshNow()
        #expect(rig.warnings.all.count == 1)  // once for that user
        try await alice.signOut(scope: .local)
        #expect(try rig.store.load(project: Rig.project)?.user.id == bob.userID)
      }
    }
  }

  /// A `logout` elsewhere removed the file after this process read or wrote its session there:
  /// its next refresh wrote the session back, and the next snm started signed in as it. Now the
  /// session is refreshed in memory, the file stays gone (said once), and the process leaves the
  /// file alone from then on (a sign-in elsewhere is neither taken nor written over, nor warned
  /// of) until a sign-in here, whose refreshes are kept in the file again.
  @Test func aRefreshNeverWritesBackAFileALogoutElsewhereRemoved() async throws {
    let rig = try Rig(lifetime: 3600)
    defer { rig.directory.remove() }
    let alice = rig.manager()
    await alice.saveSession(for: rig.auth.issue())
    try rig.store.delete(project: Rig.project)
    #expect(try await alice.refreshNow().get().user.id == rig.auth.userID)
    #expect(try rig.store.load(project: Rig.project) == nil)
    #expect(rig.warnings.all.count == 1)
    #expect(rig.warnings.all.last?.contains("was removed (a 'logout' elsewhere)") == true)
    let bob = FakeAuth(clock: rig.clock)
    let other = bob.issue()
    await rig.manager(auth: bob).saveSession(for: other)
    #expect(try await alice.refreshNow().get().user.id == rig.auth.userID)
    #expect(try rig.store.load(project: Rig.project)?.refreshToken == other.refreshToken)
    try await alice.signOut(scope: .local)
    #expect(try rig.store.load(project: Rig.project)?.refreshToken == other.refreshToken)
    #expect(rig.warnings.all.count == 1)
    await alice.saveSession(for: rig.auth.issue())
    let fresh = try await alice.refreshNow().get()
    #expect(try rig.store.load(project: Rig.project)?.refreshToken == fresh.refreshToken)
  }
}
