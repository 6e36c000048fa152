import Foundation
import SNMWire
import Testing

@testable import SNMGateway
@testable import SNMLocal
@testable import SNMLocalAuth

/// The scratch cluster's socket folder, when `scripts/test` started one.
let authStoreHost = ProcessInfo.processInfo.environment["SNM_REST_TEST_PGHOST"]

/// `AuthStore`'s named operations against the scratch local project's cluster
/// (`SNM_REST_TEST_PGHOST`, as the REST database tests; skipped without it), in a database of
/// their own there with every migration applied: the REST suites' fixture drops and recreates
/// the `postgres` database's auth schema bare while these run (in the whole unit run every test
/// here once failed with 42P01, auth.users missing). Each test runs in a transaction it rolls
/// back, so nothing it writes stays.
@Suite(.enabled(if: authStoreHost != nil)) struct AuthStoreTests {
  /// The conninfo of the store's own database, made and migrated once for the run.
  static let database: Result<String, any Error> = {
    do {
      let host = authStoreHost ?? ""
      let admin = try PGConnection(conninfo: "host=\(host) user=postgres dbname=postgres")
      let exists = try admin.execute(
        "select 1 from pg_database where datname = 'snm_auth_store_tests'")
      if exists.rows.isEmpty { _ = try admin.execute("create database snm_auth_store_tests") }
      let conninfo = "host=\(host) user=postgres dbname=snm_auth_store_tests"
      _ = try Migrator(migrationsDir: nil).apply(on: try PGConnection(conninfo: conninfo))
      return .success(conninfo)
    } catch {
      return .failure(error)
    }
  }()

  /// Runs `body` with a store in a transaction that is rolled back afterwards.
  func inRolledBackTransaction(_ body: (AuthStore) throws -> Void) throws {
    let connection = try PGConnection(conninfo: try Self.database.get())
    _ = try connection.execute("begin")
    defer { _ = try? connection.execute("rollback") }
    try body(AuthStore(connection))
  }

  static func email() -> String { "store-\(UUID().uuidString.lowercased())@example.com" }

  @Test func usersAreMadeOnceAndFoundByIDEmailAndPhone() throws {
    try inRolledBackTransaction { store in
      let email = Self.email()
      let id = try store.insertUser(
        NewAuthUser(
          email: email.uppercased(), phone: "15550001234", password: "secret-password",
          provider: "email", userMetadata: .object([.init("name", .string("Ann"))]),
          emailConfirmed: true))
      let byID = try #require(try store.user(id: id))
      #expect(byID.email == email, "stored lowercased")
      #expect(byID.phone == "15550001234")
      #expect(byID.emailConfirmedAt != nil)
      #expect(byID.phoneConfirmedAt == nil)
      #expect(byID.isAnonymous == false)
      #expect(byID.appMetadata["provider"]?.stringValue == "email")
      #expect(byID.userMetadata["name"]?.stringValue == "Ann")
      #expect(try store.user(email: email.uppercased())?.id == id, "any case")
      #expect(try store.user(phone: "15550001234")?.id == id)
      #expect(try store.user(email: Self.email()) == nil)
      #expect(try store.user(id: UUID().uuidString) == nil)
      let password = try store.connection.execute(
        "select encrypted_password = extensions.crypt($2, encrypted_password) "
          + "from auth.users where id = $1::uuid", [id, "secret-password"])
      #expect(password.scalar == "t", "kept as a bcrypt hash that the password matches")

      let anonymous = try store.insertUser(NewAuthUser(anonymous: true, signedIn: true))
      let user = try #require(try store.user(id: anonymous))
      #expect(user.isAnonymous && user.email.isEmpty && user.lastSignInAt != nil)

      _ = try store.connection.execute(
        "update auth.users set deleted_at = now() where id = $1::uuid", [id])
      #expect(try store.user(id: id) == nil, "a soft-deleted user is gone")
      #expect(try store.user(email: email) == nil)
      #expect(try store.user(includingDeleted: id)?.deletedAt != nil, "but the admin API sees it")
    }
  }

  @Test func quotesAndInjectionAreOnlyValues() throws {
    try inRolledBackTransaction { store in
      let email = "o'brien\"; drop table auth.users; --@example.com"
      let id = try store.insertUser(NewAuthUser(email: email, provider: "email"))
      #expect(try store.user(email: email)?.id == id)
      #expect(try store.user(email: "' or '1'='1") == nil)
    }
  }

  @Test func aRefreshTokenRotatesOnceAndItsReuseEndsTheSession() throws {
    try inRolledBackTransaction { store in
      let id = try store.insertUser(NewAuthUser(email: Self.email(), provider: "email"))
      let first = try store.createSession(userID: id, method: "password", at: 1_000)
      #expect(first.refreshToken.count == 24)
      #expect(
        try store.session(id: first.sessionID)
          == AuthStore.SessionRow(aal: "aal1", method: "password", signedInAt: 1_000))

      // A live token: revoked, replaced by its child.
      let rotated = try store.rotateRefreshToken(first.refreshToken, reuseInterval: 0)
      guard case .issued(id, first.sessionID, let second) = rotated else {
        Issue.record("rotation gave \(rotated)")
        return
      }
      #expect(second != first.refreshToken)
      let active = try #require(try store.activeRefreshToken(sessionID: first.sessionID))
      #expect(active.token == second && active.parent == first.refreshToken)

      // The parent of the active token again (the client lost the answer): the active token.
      #expect(
        try store.rotateRefreshToken(first.refreshToken, reuseInterval: 0)
          == .issued(userID: id, sessionID: first.sessionID, token: second))

      // A token two generations back: reuse, the session and all its tokens end.
      guard case .issued(_, _, let third) = try store.rotateRefreshToken(second, reuseInterval: 0)
      else {
        Issue.record("the second token did not rotate")
        return
      }
      #expect(try store.rotateRefreshToken(first.refreshToken, reuseInterval: 0) == .reused)
      #expect(try store.session(id: first.sessionID) == nil)
      #expect(try store.rotateRefreshToken(third, reuseInterval: 0) == .notFound)
      #expect(
        try store.rotateRefreshToken("0123456789abcdef01234567", reuseInterval: 0) == .notFound)
    }
  }

  @Test func aTokenRevokedWithinTheReuseIntervalGivesTheActiveOne() throws {
    try inRolledBackTransaction { store in
      let id = try store.insertUser(NewAuthUser(email: Self.email(), provider: "email"))
      let session = try store.createSession(userID: id, method: "password", at: 1_000)
      guard
        case .issued(_, _, let second) = try store.rotateRefreshToken(
          session.refreshToken, reuseInterval: 10)
      else {
        Issue.record("the first token did not rotate")
        return
      }
      guard
        case .issued(_, _, let third) = try store.rotateRefreshToken(
          second, reuseInterval: 10)
      else {
        Issue.record("the second token did not rotate")
        return
      }
      // Revoked moments ago (one transaction: no time passed), not the active token's parent.
      #expect(
        try store.rotateRefreshToken(session.refreshToken, reuseInterval: 10)
          == .issued(userID: id, sessionID: session.sessionID, token: third))
    }
  }

  @Test func sessionsEndOneOthersOrAll() throws {
    try inRolledBackTransaction { store in
      let id = try store.insertUser(NewAuthUser(email: Self.email(), provider: "email"))
      let a = try store.createSession(userID: id, method: "password", at: 1)
      let b = try store.createSession(userID: id, method: "otp", at: 2)
      let c = try store.createSession(userID: id, method: "password", at: 3)
      #expect(try store.sessionExists(id: a.sessionID, userID: id))
      #expect(try !store.sessionExists(id: a.sessionID, userID: UUID().uuidString))
      #expect(try !store.sessionExists(id: "not-a-uuid", userID: id))
      try store.deleteSession(id: a.sessionID)
      #expect(try !store.sessionExists(id: a.sessionID, userID: id))
      #expect(try store.rotateRefreshToken(a.refreshToken, reuseInterval: 0) == .notFound)
      try store.deleteSessions(userID: id, except: b.sessionID)
      #expect(try store.sessionExists(id: b.sessionID, userID: id))
      #expect(try !store.sessionExists(id: c.sessionID, userID: id))
      try store.deleteSessions(userID: id)
      #expect(try !store.sessionExists(id: b.sessionID, userID: id))
    }
  }

  @Test func aVerifiedFactorRaisesTheSessionAndReplacesItsTokens() throws {
    try inRolledBackTransaction { store in
      let id = try store.insertUser(NewAuthUser(email: Self.email(), provider: "email"))
      let factor = try Self.factor(userID: id, store)
      let kept = try store.createSession(userID: id, method: "password", at: 1)
      let other = try store.createSession(userID: id, method: "password", at: 2)
      #expect(try store.aal(sessionID: kept.sessionID) == "aal1")
      try store.elevate(sessionID: kept.sessionID, factorID: factor, userID: id)
      #expect(try store.aal(sessionID: kept.sessionID) == "aal2")
      #expect(try store.amrClaims(sessionID: kept.sessionID).map(\.method) == ["totp"])
      #expect(try !store.sessionExists(id: other.sessionID, userID: id), "aal1 sessions end")
      let token = try store.replaceRefreshTokens(userID: id, sessionID: kept.sessionID)
      #expect(try store.activeRefreshToken(sessionID: kept.sessionID)?.token == token)
      #expect(try store.rotateRefreshToken(kept.refreshToken, reuseInterval: 0) == .reused)
      #expect(try store.aal(sessionID: nil) == "aal1")
    }
  }

  static func factor(userID: String, _ store: AuthStore) throws -> String {
    let created = try store.connection.execute(
      "insert into auth.mfa_factors (user_id, friendly_name, factor_type, secret) "
        + "values ($1::uuid, $2, 'totp', $3) returning id::text",
      [userID, "phone \(UUID().uuidString)", "JBSWY3DPEHPK3PXP"])
    return try #require(created.scalar)
  }

  @Test func aFactorLocksAfterItsWrongGuessesAndARightOneForgetsThem() throws {
    try inRolledBackTransaction { store in
      let id = try store.insertUser(NewAuthUser(email: Self.email(), provider: "email"))
      let factor = try Self.factor(userID: id, store)
      #expect(try store.factors(userID: id).map { $0["id"]?.stringValue } == [factor])
      for _ in 1..<AuthGuessLimits.factorTries {
        try store.recordWrongFactorCode(factor)
        #expect(try !store.isFactorLocked(factor))
      }
      try store.recordWrongFactorCode(factor)
      #expect(try store.isFactorLocked(factor), "locked at the limit")

      let fresh = try Self.factor(userID: id, store)
      for _ in 1..<AuthGuessLimits.factorTries { try store.recordWrongFactorCode(fresh) }
      try store.forgetWrongFactorCodes(fresh)
      try store.recordWrongFactorCode(fresh)
      #expect(try !store.isFactorLocked(fresh), "a right code forgot the wrong ones")
    }
  }

  @Test func aUsersPendingCodesAreSpentAfterTheirWrongGuesses() throws {
    try inRolledBackTransaction { store in
      let email = Self.email()
      let id = try store.insertUser(NewAuthUser(email: email, provider: "email"))
      _ = try store.connection.execute(
        "update auth.users set recovery_token = 'pending' where id = $1::uuid", [id])
      func pending() throws -> String? {
        try store.connection.execute(
          "select recovery_token from auth.users where id = $1::uuid", [id]
        ).scalar
      }
      for _ in 1..<AuthGuessLimits.codeTries { try store.recordWrongCode(address: email) }
      #expect(try pending() == "pending")
      try store.recordWrongCode(userID: id)
      #expect(try pending() == "", "spent at the limit, by address or by id")
    }
  }
}
