import Foundation
import SNMWire
import Testing

@testable import SNMGateway
@testable import SNMLocal
@testable import SNMLocalAuth

/// `AuthStore`'s operations that change and find users for the account flows and the admin API,
/// on the scratch cluster's Auth test database (`AuthStoreTests`), each test in a transaction it
/// rolls back.
@Suite(.enabled(if: authStoreHost != nil)) struct AuthStoreUserChangesTests {
  @Test func aPasswordSignInFindsOnlyTheRightPasswordsUser() throws {
    try inAuthStoreTransaction { connection in
      let store = AuthStore(connection)
      let email = AuthStoreTests.email()
      let id = try store.insertUser(
        NewAuthUser(
          email: email, phone: "15550002222", password: "right-password", provider: "email",
          emailConfirmed: true))
      #expect(
        try store.passwordSignIn(.email(email.uppercased()), password: "right-password")
          == .init(userID: id, isBanned: false, isConfirmed: true))
      #expect(try store.passwordSignIn(.email(email), password: "wrong-password") == nil)
      #expect(try store.passwordSignIn(.email(AuthStoreTests.email()), password: "x") == nil)
      #expect(
        try store.passwordSignIn(.phone("15550002222"), password: "right-password")
          == .init(userID: id, isBanned: false, isConfirmed: false), "the phone is unconfirmed")
      #expect(try store.passwordSignIn(.phone("' or 1=1 --"), password: "right-password") == nil)

      try store.ban(userID: id, seconds: 3600)
      #expect(try store.isBanned(userID: id))
      #expect(try store.passwordSignIn(.email(email), password: "right-password")?.isBanned == true)
      try store.ban(userID: id, seconds: 0)
      #expect(try !store.isBanned(userID: id), "0 lifts the ban")
      #expect(try !store.isBanned(userID: UUID().uuidString))

      let before = try userColumn("updated_at", of: id, on: connection)
      try store.recordSignIn(userID: id)
      #expect(try userColumn("last_sign_in_at", of: id, on: connection) != nil)
      #expect(try userColumn("updated_at", of: id, on: connection) == before)

      let noPassword = try store.insertUser(NewAuthUser(email: AuthStoreTests.email()))
      #expect(try !store.passwordMatches(userID: noPassword, password: ""))
      try store.setPassword(userID: id, to: "new-password")
      #expect(try store.passwordMatches(userID: id, password: "new-password"))
      #expect(try !store.passwordMatches(userID: id, password: "right-password"))
      #expect(try store.passwordSignIn(.email(email), password: "right-password") == nil)
    }
  }

  @Test func takenAddressesCountSoftDeletedUsersButNotTheUserThemself() throws {
    try inAuthStoreTransaction { connection in
      let store = AuthStore(connection)
      let email = AuthStoreTests.email()
      let id = try store.insertUser(NewAuthUser(email: email, phone: "15550003333"))
      #expect(try store.isEmailTaken(email.uppercased()))
      #expect(try !store.isEmailTaken(email, byOtherThan: id))
      #expect(try store.isEmailTaken(email, byOtherThan: UUID().uuidString))
      #expect(try !store.isEmailTaken(AuthStoreTests.email()))
      #expect(try store.isPhoneTaken("15550003333"))
      #expect(try !store.isPhoneTaken("15550003334"))
      _ = try connection.execute(
        "update auth.users set deleted_at = now() where id = $1::uuid", [id])
      #expect(try store.isEmailTaken(email), "a soft-deleted user's address stays taken")
    }
  }

  @Test func metadataMergesRemovesNullKeysAndStaysWithinItsBound() throws {
    try inAuthStoreTransaction { connection in
      let store = AuthStore(connection)
      let id = try store.insertUser(
        NewAuthUser(
          email: AuthStoreTests.email(), userMetadata: ["a": 1, "b": 2, "c": ["d": 3]]))
      try store.mergeMetadata(.user, userID: id, with: ["b": nil, "c": "x", "e": true])
      #expect(try store.user(id: id)?.userMetadata == ["a": 1, "c": "x", "e": true])
      try store.mergeMetadata(.app, userID: id, with: ["role": "editor"])
      #expect(try store.user(id: id)?.appMetadata["role"] == "editor")

      let large = JSONValue.string(String(repeating: "x", count: AuthMetadataBound.maximumBytes))
      #expect(throws: AuthMetadataBound.tooLarge) {
        try store.mergeMetadata(.user, userID: id, with: ["big": large])
      }
    }
  }

  @Test func aSignUpAgainReplacesAndAnInviteAgainMergesMetadata() throws {
    try inAuthStoreTransaction { connection in
      let store = AuthStore(connection)
      let email = AuthStoreTests.email()
      let id = try store.insertUser(
        NewAuthUser(email: email, password: "first-password", userMetadata: ["a": 1]))
      try store.renewSignUp(userID: id, password: "second-password", metadata: ["b": 2])
      #expect(try store.user(id: id)?.userMetadata == ["b": 2], "replaced")
      #expect(try store.passwordMatches(userID: id, password: "second-password"))
      try store.reinvite(userID: id, metadata: ["c": 3])
      let user = try #require(try store.user(id: id))
      #expect(user.userMetadata == ["b": 2, "c": 3], "merged")
      #expect(user.invitedAt != nil)
    }
  }

  @Test func addressesConfirmationsAndAnAnonymousUsersConversion() throws {
    try inAuthStoreTransaction { connection in
      let store = AuthStore(connection)
      let id = try store.insertUser(NewAuthUser(email: AuthStoreTests.email()))
      let new = AuthStoreTests.email()
      _ = try connection.execute(
        "update auth.users set email_change = 'pending@example.com' where id = $1::uuid", [id])
      #expect(try store.user(pendingEmail: "PENDING@example.com")?.id == id)
      try store.setEmail(userID: id, to: new.uppercased())
      let user = try #require(try store.user(id: id))
      #expect(user.email == new && user.newEmail == "", "set at once, the pending change gone")
      #expect(try store.user(pendingEmail: "pending@example.com") == nil)

      try store.setEmailConfirmed(userID: id, true)
      let confirmed = try userColumn("email_confirmed_at", of: id, on: connection)
      #expect(confirmed != nil)
      _ = try connection.execute(
        "update auth.users set email_confirmed_at = now() - interval '1 day' "
          + "where id = $1::uuid", [id])
      let earlier = try userColumn("email_confirmed_at", of: id, on: connection)
      try store.setEmailConfirmed(userID: id, true)
      #expect(try userColumn("email_confirmed_at", of: id, on: connection) == earlier, "kept")
      try store.setEmailConfirmed(userID: id, false)
      #expect(try userColumn("email_confirmed_at", of: id, on: connection) == nil)

      let phone = try store.insertUser(NewAuthUser(phone: "15550004444", provider: "phone"))
      try store.confirmPhone(userID: phone)
      #expect(try store.user(id: phone)?.phoneConfirmedAt != nil)

      let anonymous = try store.insertUser(NewAuthUser(anonymous: true))
      let address = AuthStoreTests.email()
      try store.convertAnonymous(userID: anonymous, email: address)
      let converted = try #require(try store.user(id: anonymous))
      #expect(!converted.isAnonymous && converted.email == address)
      #expect(converted.emailConfirmedAt != nil)
      #expect(converted.appMetadata["providers"] == ["email"])
    }
  }

  @Test func aSoftDeleteKeepsTheRowAndEndsEverythingElse() throws {
    try inAuthStoreTransaction { connection in
      let store = AuthStore(connection)
      let email = AuthStoreTests.email()
      let id = try store.insertUser(
        NewAuthUser(email: email, password: "a-password", userMetadata: ["a": 1]))
      let session = try store.createSession(userID: id, method: "password", at: 1)
      _ = try FactorStore(connection).insertTOTP(userID: id, friendlyName: "f", secret: "JBSW")
      try FlowTokenStore(connection).setCode(.recovery, userID: id, hash: "recovery-hash")
      try store.softDeleteUser(id: id)
      #expect(try store.user(id: id) == nil)
      let kept = try #require(try store.user(includingDeleted: id))
      #expect(kept.email == "" && kept.userMetadata == [:] && kept.deletedAt != nil)
      #expect(kept.factors.isEmpty)
      #expect(try !store.sessionExists(id: session.sessionID, userID: id))
      #expect(try userColumn("recovery_token", of: id, on: connection) == "")
      #expect(try !store.passwordMatches(userID: id, password: "a-password"))
      #expect(try !store.isEmailTaken(email), "the address is free again")

      try store.deleteUser(id: id)
      #expect(try store.user(includingDeleted: id) == nil)
    }
  }

  @Test func usersArePagedNewestFirstAndTheFilterIsLiteral() throws {
    try inAuthStoreTransaction { connection in
      let store = AuthStore(connection)
      let tag = UUID().uuidString.prefix(8).lowercased()
      var ids: [String] = []
      for (index, local) in ["a_b", "axb", "a%b"].enumerated() {
        let id = try store.insertUser(NewAuthUser(email: "\(local)-\(tag)@example.com"))
        _ = try connection.execute(
          "update auth.users set created_at = now() + make_interval(secs => $2::int) "
            + "where id = $1::uuid", [id, String(index)])
        ids.append(id)
      }
      let named = try store.insertUser(
        NewAuthUser(
          email: AuthStoreTests.email(), userMetadata: ["full_name": .string("Ann \(tag)")]))
      _ = try connection.execute(
        "update auth.users set created_at = now() + interval '10 seconds' where id = $1::uuid",
        [named])

      let all = try store.users(matching: tag, page: 1, perPage: 50)
      #expect(all.total == 4)
      #expect(all.users.map(\.id) == [named] + ids.reversed(), "newest first")
      #expect(
        try store.users(matching: "a_b-\(tag)", page: 1, perPage: 50).users.map(\.id) == [ids[0]])
      #expect(
        try store.users(matching: "a%b-\(tag)", page: 1, perPage: 50).users.map(\.id) == [ids[2]])
      #expect(
        try store.users(matching: "ANN \(tag)", page: 1, perPage: 50).users.map(\.id) == [named])
      let second = try store.users(matching: tag, page: 2, perPage: 3)
      #expect(second.total == 4 && second.users.map(\.id) == [ids[0]])
      #expect(try store.users(matching: "", page: 1, perPage: 1).total >= 4)
    }
  }

  @Test func aSessionsStandingSaysItsLevelAndAge() throws {
    try inAuthStoreTransaction { connection in
      let store = AuthStore(connection)
      let id = try store.insertUser(NewAuthUser(email: AuthStoreTests.email()))
      let session = try store.createSession(userID: id, method: "password", at: 1)
      #expect(try store.sessionStanding(id: session.sessionID)?.aal == "aal1")
      #expect(try store.sessionStanding(id: session.sessionID)?.isOlderThanADay == false)
      _ = try connection.execute(
        "update auth.sessions set created_at = now() - interval '25 hours', aal = 'aal2' "
          + "where id = $1::uuid", [session.sessionID])
      #expect(try store.sessionStanding(id: session.sessionID)?.isOlderThanADay == true)
      #expect(try store.sessionStanding(id: session.sessionID)?.aal == "aal2")
      #expect(try store.sessionStanding(id: "") == nil)
    }
  }
}
