import SNMWire
import Testing

@testable import SNMGateway
@testable import SNMLocalFunctions

/// What the gateway hands a function in `Authorization`, as Supabase's gateway does.
@Suite struct FunctionsServiceTests {
  let keys: ProjectKeys

  init() throws {
    keys = try ProjectKeys(secret: Array(repeating: 7, count: 32), issuedAt: 1_700_000_000)
  }

  func authorization(_ headers: HTTPHeaders) -> String? {
    FunctionsService.authorizing(headers, keys: keys)["Authorization"]
  }

  @Test func aNewFormatKeyBecomesItsRolesJWT() {
    #expect(authorization(["apikey": keys.publishableKey]) == "Bearer " + keys.anonKey)
    #expect(authorization(["apikey": keys.secretKey]) == "Bearer " + keys.serviceRoleKey)
    // supabase-js sends the key as the token too before anyone signs in.
    #expect(
      authorization([
        "apikey": keys.publishableKey, "Authorization": "Bearer " + keys.publishableKey,
      ])
        == "Bearer " + keys.anonKey)
  }

  @Test func aLegacyKeyAloneIsTheToken() {
    #expect(authorization(["apikey": keys.anonKey]) == "Bearer " + keys.anonKey)
  }

  @Test func aUsersTokenIsKept() {
    #expect(
      authorization(["apikey": keys.publishableKey, "Authorization": "Bearer user.token.here"])
        == "Bearer user.token.here")
  }

  @Test func nothingIsMadeUpWithoutAKey() {
    #expect(authorization([:]) == nil)
    #expect(authorization(["apikey": "sb_publishable_not_ours"]) == nil)
    #expect(
      authorization(["Authorization": "Bearer " + keys.publishableKey])
        == "Bearer " + keys.publishableKey)
  }
}
