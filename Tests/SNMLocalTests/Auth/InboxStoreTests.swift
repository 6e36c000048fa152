import Foundation
import Testing

@testable import SNMGateway
@testable import SNMLocal
@testable import SNMLocalAuth

/// `InboxStore`'s operations on the scratch cluster's Auth test database (`AuthStoreTests`),
/// each test in a transaction it rolls back.
@Suite(.enabled(if: authStoreHost != nil)) struct InboxStoreTests {
  @Test func mailsAndTextsAreListedNewestFirstByRecipient() throws {
    try inAuthStoreTransaction { connection in
      let inbox = InboxStore(connection)
      let ann = AuthStoreTests.email()
      for (number, kind) in [(1, "signup"), (2, "recovery"), (3, "magiclink")] {
        try inbox.deliverMail(
          InboxStore.Message(
            recipient: ann.uppercased(), kind: kind, subject: "subject \(number)",
            otp: "00000\(number)", tokenHash: "hash-\(number)", link: nil, body: "text \(number)"))
      }
      let textID = try inbox.deliverText(
        to: "15550001111", otp: "123456", tokenHash: "sms-hash", body: "Your code is 123456")
      #expect(UUID(uuidString: textID) != nil, "the message id an SMS provider answers")

      let mails = try inbox.messages(to: ann, limit: 50)
      #expect(mails.map(\.kind) == ["magiclink", "recovery", "signup"], "newest first")
      #expect(mails.allSatisfy { $0.recipient == ann }, "kept lowercased")
      #expect(try inbox.messages(to: ann.uppercased(), limit: 50).count == 3, "any case")
      #expect(try inbox.messages(to: ann, limit: 2).map(\.subject) == ["subject 3", "subject 2"])
      let first = try #require(mails.last)
      #expect(first.otp == "000001" && first.tokenHash == "hash-1" && first.body == "text 1")
      #expect(first.link == nil && first.sentAt?.hasSuffix("Z") == true)

      let texts = try inbox.messages(to: "15550001111", limit: 50)
      #expect(
        texts == [
          InboxStore.Message(
            id: textID, recipient: "15550001111", kind: "sms", subject: "SMS", otp: "123456",
            tokenHash: "sms-hash", link: nil, sentAt: texts.first?.sentAt,
            body: "Your code is 123456")
        ])
      #expect(try inbox.messages(to: AuthStoreTests.email(), limit: 50).isEmpty)
      #expect(try inbox.messages(to: "", limit: 1000).count >= 4, "everyone's for no address")
    }
  }

  @Test func aRecipientIsAValueNotAPattern() throws {
    try inAuthStoreTransaction { connection in
      let inbox = InboxStore(connection)
      try inbox.deliverMail(
        InboxStore.Message(
          recipient: "o'brien@example.com", kind: "signup", subject: "s", body: "b"))
      #expect(try inbox.messages(to: "o'brien@example.com", limit: 5).count == 1)
      #expect(try inbox.messages(to: "%", limit: 5).isEmpty)
      #expect(try inbox.messages(to: "' or ''='", limit: 5).isEmpty)
    }
  }
}
