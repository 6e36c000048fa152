import Foundation
import SNMWire
import Testing

@testable import SNMGateway
@testable import SNMLocal
@testable import SNMLocalAuth

/// `FlowTokenStore`'s operations on the scratch cluster's Auth test database (`AuthStoreTests`),
/// each test in a transaction it rolls back. Codes older than their expiry are made by moving
/// their sent-at time back, never by waiting.
@Suite(.enabled(if: authStoreHost != nil)) struct FlowTokenStoreTests {
  @Test func aMailedCodeIsFoundByItsHashInItsOwnColumnUntilSpent() throws {
    try inAuthStoreTransaction { connection in
      let email = AuthStoreTests.email()
      let id = try AuthStore(connection).insertUser(NewAuthUser(email: email, provider: "email"))
      let codes = FlowTokenStore(connection)
      try codes.setCode(.recovery, userID: id, hash: "recovery-hash")
      func found(_ type: String, _ hash: String = "recovery-hash", email: String? = nil)
        throws -> FlowTokenStore.PendingCode?
      {
        try codes.pendingCode(type: type, hash: hash, email: email, expiry: 3600)
      }
      #expect(try found("recovery") == .init(userID: id, type: "recovery"))
      #expect(try found("magiclink") == .init(userID: id, type: "magiclink"), "one column")
      #expect(try found("email") == .init(userID: id, type: "magiclink"), "email resolves")
      #expect(try found("signup") == nil, "another column")
      #expect(try found("sms") == nil, "no mailed code of that type")
      #expect(try found("recovery", "other-hash") == nil)
      #expect(try found("recovery", email: email.uppercased())?.userID == id, "any case")
      #expect(try found("recovery", email: AuthStoreTests.email()) == nil, "another address")
      #expect(try found("recovery", "") == nil, "no code is never a code")
      #expect(try userColumn("email_confirmed_at", of: id, on: connection) == nil)

      _ = try connection.execute(
        "update auth.users set recovery_sent_at = now() - interval '3601 seconds' "
          + "where id = $1::uuid", [id])
      #expect(try found("recovery") == nil, "older than the expiry")
      try codes.setCode(.recovery, userID: id, hash: "recovery-hash")
      #expect(try found("recovery") != nil, "sent again: sent now")

      try codes.useRecoveryCode(userID: id)
      #expect(try found("recovery") == nil, "spent")
      #expect(try userColumn("email_confirmed_at", of: id, on: connection) != nil)

      try codes.setCode(.signup, userID: id, hash: "signup-hash")
      #expect(try found("email", "signup-hash") == .init(userID: id, type: "signup"))
      try codes.useConfirmationCode(userID: id)
      #expect(try found("signup", "signup-hash") == nil)
    }
  }

  @Test func aSoftDeletedUsersCodeIsNone() throws {
    try inAuthStoreTransaction { connection in
      let id = try AuthStore(connection).insertUser(
        NewAuthUser(email: AuthStoreTests.email(), provider: "email"))
      let codes = FlowTokenStore(connection)
      try codes.setCode(.invite, userID: id, hash: "invite-hash")
      _ = try connection.execute(
        "update auth.users set deleted_at = now() where id = $1::uuid", [id])
      #expect(
        try codes.pendingCode(type: "invite", hash: "invite-hash", email: nil, expiry: 60) == nil)
    }
  }

  @Test func aTextedCodeWaitsItsFrequencyAndSignsIn() throws {
    try inAuthStoreTransaction { connection in
      let id = try AuthStore(connection).insertUser(
        NewAuthUser(phone: "15550007777", provider: "phone"))
      let codes = FlowTokenStore(connection)
      #expect(try codes.secondsUntilNextText(userID: id, frequency: 60) == nil, "none sent")
      try codes.setPhoneCode(userID: id, hash: "sms-hash")
      #expect(try codes.secondsUntilNextText(userID: id, frequency: 60) == 60)
      #expect(try codes.isPhoneCodeValid(userID: id, hash: "sms-hash", expiry: 60))
      #expect(try !codes.isPhoneCodeValid(userID: id, hash: "other", expiry: 60))
      #expect(try !codes.isPhoneCodeValid(userID: id, hash: "", expiry: 60))
      _ = try connection.execute(
        "update auth.users set confirmation_sent_at = now() - interval '45.5 seconds' "
          + "where id = $1::uuid", [id])
      #expect(try codes.secondsUntilNextText(userID: id, frequency: 60) == 15, "rounded up")
      #expect(try !codes.isPhoneCodeValid(userID: id, hash: "sms-hash", expiry: 45))
      #expect(try codes.isPhoneCodeValid(userID: id, hash: "sms-hash", expiry: 46))
      _ = try connection.execute(
        "update auth.users set confirmation_sent_at = now() - interval '61 seconds' "
          + "where id = $1::uuid", [id])
      #expect(try codes.secondsUntilNextText(userID: id, frequency: 60) == nil)

      try codes.confirmPhoneSignIn(userID: id)
      #expect(try userColumn("confirmation_token", of: id, on: connection) == "")
      #expect(try userColumn("phone_confirmed_at", of: id, on: connection) != nil)
      #expect(try userColumn("last_sign_in_at", of: id, on: connection) != nil)
    }
  }

  @Test func aReauthenticationCodeIsUsedOnceWithinItsExpiry() throws {
    try inAuthStoreTransaction { connection in
      let id = try AuthStore(connection).insertUser(
        NewAuthUser(email: AuthStoreTests.email(), provider: "email"))
      let codes = FlowTokenStore(connection)
      #expect(try !codes.useReauthenticationCode(userID: id, hash: "", expiry: 60))
      try codes.setCode(.reauthentication, userID: id, hash: "nonce-hash")
      #expect(try !codes.useReauthenticationCode(userID: id, hash: "wrong", expiry: 60))
      _ = try connection.execute(
        "update auth.users set reauthentication_sent_at = now() - interval '61 seconds' "
          + "where id = $1::uuid", [id])
      #expect(try !codes.useReauthenticationCode(userID: id, hash: "nonce-hash", expiry: 60))
      #expect(try codes.useReauthenticationCode(userID: id, hash: "nonce-hash", expiry: 120))
      #expect(
        try !codes.useReauthenticationCode(userID: id, hash: "nonce-hash", expiry: 120), "once")
    }
  }

  @Test func anEmailChangeConfirmsHalfThenWhole() throws {
    try inAuthStoreTransaction { connection in
      let old = AuthStoreTests.email()
      let new = AuthStoreTests.email()
      let id = try AuthStore(connection).insertUser(
        NewAuthUser(email: old, provider: "email", emailConfirmed: true))
      let codes = FlowTokenStore(connection)
      try codes.setCode(.emailChangeCurrent, userID: id, hash: "stale-current")
      try codes.beginEmailChange(userID: id, to: new.uppercased())
      #expect(try userColumn("email_change", of: id, on: connection) == new, "lowercased")
      #expect(
        try userColumn("email_change_token_current", of: id, on: connection) == "",
        "an earlier code for the current address is spent")
      try codes.setCode(.emailChangeNew, userID: id, hash: "new-hash")
      try codes.setCode(.emailChangeCurrent, userID: id, hash: "current-hash")
      func found(_ hash: String, _ email: String) throws -> FlowTokenStore.PendingCode? {
        try codes.pendingCode(type: "email_change", hash: hash, email: email, expiry: 60)
      }
      #expect(try found("new-hash", new)?.userID == id, "the new code with the new address")
      #expect(try found("new-hash", old) == nil)
      #expect(try found("current-hash", old)?.userID == id, "the current one with the current")
      #expect(try found("current-hash", new) == nil)

      #expect(
        try codes.emailChangeState(userID: id, hash: "current-hash")
          == .init(isUnconfirmed: true, isCurrentAddressCode: true, hasEmail: true))
      #expect(
        try codes.emailChangeState(userID: id, hash: "new-hash")?.isCurrentAddressCode == false)
      #expect(try codes.emailChangeState(userID: UUID().uuidString, hash: "new-hash") == nil)
      try codes.confirmHalfOfEmailChange(userID: id, currentAddress: true)
      #expect(try found("current-hash", old) == nil, "its code spent")
      #expect(try found("new-hash", new) != nil, "the other still pending")
      #expect(try codes.emailChangeState(userID: id, hash: "new-hash")?.isUnconfirmed == false)

      try codes.completeEmailChange(userID: id)
      #expect(try userColumn("email", of: id, on: connection) == new)
      #expect(try userColumn("email_change", of: id, on: connection) == "")
      #expect(try found("new-hash", new) == nil)
      #expect(try userColumn("email_change_confirm_status", of: id, on: connection) == "0")
    }
  }

  @Test func anAdminsLinkNotesTheChangeAndKeepsTheCodes() throws {
    try inAuthStoreTransaction { connection in
      let id = try AuthStore(connection).insertUser(
        NewAuthUser(email: AuthStoreTests.email(), provider: "email"))
      let codes = FlowTokenStore(connection)
      try codes.setCode(.emailChangeCurrent, userID: id, hash: "current-hash")
      let updated = try userColumn("updated_at", of: id, on: connection)
      let new = AuthStoreTests.email()
      try codes.noteEmailChange(userID: id, to: new)
      #expect(try userColumn("email_change", of: id, on: connection) == new)
      #expect(
        try userColumn("email_change_token_current", of: id, on: connection) == "current-hash")
      #expect(try userColumn("updated_at", of: id, on: connection) == updated)
    }
  }
}
