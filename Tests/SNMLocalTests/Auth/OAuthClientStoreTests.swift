import Foundation
import Testing

@testable import SNMGateway
@testable import SNMLocal
@testable import SNMLocalAuth

/// `OAuthClientStore`'s operations on the scratch cluster's Auth test database
/// (`AuthStoreTests`), each test in a transaction it rolls back.
@Suite(.enabled(if: authStoreHost != nil)) struct OAuthClientStoreTests {
  func newClient(_ name: String, type: String = "confidential") -> OAuthClientRow {
    OAuthClientRow(
      id: "", clientType: type,
      tokenEndpointAuthMethod: type == "public" ? "none" : "client_secret_basic",
      registrationType: "manual", redirectURIs: ["https://a.example/cb", "myapp://cb"],
      grantTypes: ["authorization_code", "refresh_token"], clientName: name, clientURI: nil,
      logoURI: nil, createdAt: "", updatedAt: "")
  }

  @Test func aClientIsKeptInGoTruesColumnsWithItsSecretHashed() throws {
    try inAuthStoreTransaction { connection in
      let store = OAuthClientStore(connection)
      let secret = try OAuthClientsAPI.newSecret()
      #expect(secret.plain.count == 43 && secret.hash.count == 43 && secret.plain != secret.hash)
      let made = try store.insert(newClient("one"), secretHash: secret.hash)
      #expect(OAuthClientsAPI.canonicalUUID(made.id) == made.id)
      #expect(made.redirectURIs == ["https://a.example/cb", "myapp://cb"])
      #expect(made.createdAt == made.updatedAt && made.createdAt.hasSuffix("Z"))
      let stored = try connection.execute(
        "select client_secret_hash, redirect_uris, grant_types, client_type::text "
          + "from auth.oauth_clients where id = $1::uuid", [made.id])
      #expect(
        stored.rows == [
          [
            secret.hash, "https://a.example/cb,myapp://cb", "authorization_code,refresh_token",
            "confidential",
          ]
        ])
      let digest = Base64URL.encode(try Crypto.sha256(Array(secret.plain.utf8)))
      #expect(digest == secret.hash, "the SHA-256 of the secret, as GoTrue keeps it")
      #expect(try store.client(id: made.id) == made)
      let open = try store.insert(newClient("two", type: "public"), secretHash: nil)
      let hash = try connection.execute(
        "select client_secret_hash from auth.oauth_clients where id = $1::uuid", [open.id])
      #expect(hash.rows == [[nil]], "a public client has no secret")
    }
  }

  @Test func listedNewestFirstChangedAndDeletedForGood() throws {
    try inAuthStoreTransaction { connection in
      let store = OAuthClientStore(connection)
      _ = try connection.execute("delete from auth.oauth_clients")
      let first = try store.insert(newClient("first"), secretHash: "h1")
      _ = try connection.execute(
        "update auth.oauth_clients set created_at = created_at - interval '1 minute' "
          + "where id = $1::uuid", [first.id])
      let second = try store.insert(newClient("second"), secretHash: "h2")
      #expect(try store.list().map(\.clientName) == ["second", "first"])
      var renamed = second
      renamed.clientName = "renamed"
      renamed.redirectURIs = ["https://b.example/cb"]
      let changed = try store.update(renamed)
      #expect(changed.clientName == "renamed" && changed.redirectURIs == ["https://b.example/cb"])
      let regenerated = try store.replaceSecret(id: first.id, secretHash: "h3")
      #expect(regenerated.updatedAt >= regenerated.createdAt)
      try store.delete(id: first.id)
      #expect(try store.client(id: first.id) == nil)
      #expect(try store.list().map(\.id) == [second.id])
      let kept = try connection.execute(
        "select deleted_at is not null from auth.oauth_clients where id = $1::uuid", [first.id])
      #expect(kept.scalar == "t", "kept with deleted_at, as GoTrue keeps it")
      #expect(throws: PGError.self) { try store.replaceSecret(id: first.id, secretHash: "h4") }
    }
  }
}
