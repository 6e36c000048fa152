import Foundation
import SNMWire
import Testing

@testable import SNMGateway
@testable import SNMLocal
@testable import SNMLocalAuth

/// `FactorStore`'s operations on the scratch cluster's Auth test database (`AuthStoreTests`),
/// each test in a transaction it rolls back.
@Suite(.enabled(if: authStoreHost != nil)) struct FactorStoreTests {
  @Test func aFactorIsItsOwnUsersAndStartsUnverified() throws {
    try inAuthStoreTransaction { connection in
      let users = AuthStore(connection)
      let factors = FactorStore(connection)
      let ann = try users.insertUser(NewAuthUser(email: AuthStoreTests.email(), provider: "email"))
      let bob = try users.insertUser(NewAuthUser(email: AuthStoreTests.email(), provider: "email"))
      let id = try factors.insertTOTP(userID: ann, friendlyName: "phone", secret: "JBSWY3DP")
      #expect(
        try factors.factor(id: id, userID: ann)
          == FactorStore.FactorRow(secret: "JBSWY3DP", status: "unverified", lastStep: nil))
      #expect(try factors.factor(id: id, userID: bob) == nil, "another user's factor is none")
      #expect(try factors.factor(id: UUID().uuidString, userID: ann) == nil)
      let listed = try users.factors(userID: ann)
      #expect(listed.map { $0["friendly_name"]?.stringValue } == ["phone"])
      #expect(listed.first?["last_challenged_at"] == nil, "never challenged yet")
      try factors.delete(id: id)
      #expect(try factors.factor(id: id, userID: ann) == nil)
    }
  }

  @Test func aChallengeExpiresAndIsSpentByItsVerification() throws {
    try inAuthStoreTransaction { connection in
      let users = AuthStore(connection)
      let factors = FactorStore(connection)
      let ann = try users.insertUser(NewAuthUser(email: AuthStoreTests.email(), provider: "email"))
      let id = try factors.insertTOTP(userID: ann, friendlyName: "phone", secret: "JBSWY3DP")
      let other = try factors.insertTOTP(userID: ann, friendlyName: "tablet", secret: "KRSXG5A")
      let challenge = try factors.createChallenge(factorID: id, ipAddress: "10.0.0.7", expiry: 300)
      let created = try connection.execute(
        "select extract(epoch from created_at)::bigint::text from auth.mfa_challenges "
          + "where id = $1::uuid", [challenge.id])
      #expect(challenge.expiresAt == (created.scalar.flatMap(Int.init) ?? 0) + 300)
      #expect(
        try users.factors(userID: ann).first { $0["id"]?.stringValue == id }?[
          "last_challenged_at"] != nil)
      #expect(
        try factors.challenge(id: challenge.id, factorID: id, expiry: 300)
          == FactorStore.ChallengeRow(ipAddress: "10.0.0.7", isSpent: false))
      #expect(try factors.challenge(id: challenge.id, factorID: other, expiry: 300) == nil)
      #expect(try factors.challenge(id: "not-a-uuid", factorID: id, expiry: 300) == nil)

      // Older than the expiry: spent.
      _ = try connection.execute(
        "update auth.mfa_challenges set created_at = now() - interval '301 seconds' "
          + "where id = $1::uuid", [challenge.id])
      #expect(try factors.challenge(id: challenge.id, factorID: id, expiry: 300)?.isSpent == true)
      #expect(try factors.challenge(id: challenge.id, factorID: id, expiry: 400)?.isSpent == false)

      let fresh = try factors.createChallenge(factorID: id, ipAddress: "10.0.0.7", expiry: 300)
      try factors.verify(factorID: id, challengeID: fresh.id, step: 42, userID: ann)
      #expect(try factors.challenge(id: fresh.id, factorID: id, expiry: 300)?.isSpent == true)
      #expect(
        try factors.factor(id: id, userID: ann)
          == FactorStore.FactorRow(secret: "JBSWY3DP", status: "verified", lastStep: 42))
      #expect(try factors.factor(id: other, userID: ann) == nil, "unverified ones are dropped")
    }
  }

  @Test func verifyingDropsOnlyTheSameUsersUnverifiedFactors() throws {
    try inAuthStoreTransaction { connection in
      let users = AuthStore(connection)
      let factors = FactorStore(connection)
      let ann = try users.insertUser(NewAuthUser(email: AuthStoreTests.email(), provider: "email"))
      let bob = try users.insertUser(NewAuthUser(email: AuthStoreTests.email(), provider: "email"))
      let anns = try factors.insertTOTP(userID: ann, friendlyName: "a", secret: "JBSWY3DP")
      let bobs = try factors.insertTOTP(userID: bob, friendlyName: "b", secret: "JBSWY3DP")
      let challenge = try factors.createChallenge(factorID: anns, ipAddress: "::1", expiry: 300)
      try factors.verify(factorID: anns, challengeID: challenge.id, step: 7, userID: ann)
      #expect(try factors.factor(id: bobs, userID: bob)?.status == "unverified")
      try factors.delete(id: anns)
      let left = try connection.execute(
        "select count(*)::text from auth.mfa_challenges where factor_id = $1::uuid", [anns])
      #expect(left.scalar == "0", "a factor's challenges go with it")
    }
  }
}
