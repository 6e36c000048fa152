import SNMGateway
import SNMLocalAuth

extension ProjectState {
  /// The name of the test issuer's key in the data folder (`snm local destroy` knows it as snm's).
  static let testIssuerKeyName = "auth-test-idp-es256.pem"

  /// The key of the project's test issuer (`snm local idp token`), made on first use.
  var testIssuerKeyFile: String { dataDir + "/" + Self.testIssuerKeyName }

  /// The project's stand-in for Apple's id_tokens: its own ES256 key, made on first use (by the
  /// gateway as it starts, or by the first `snm local idp token`).
  func testIssuer() throws(LocalProjectError) -> TestIdentityProvider {
    let pem = try Self.createOnce(testIssuerKeyFile, valid: { !$0.isEmpty }) {
      () throws(LocalProjectError) in
      do {
        return try TestIdentityProvider.generateKey()
      } catch {
        throw LocalProjectError(.failed, "cannot make the test issuer's key: \(error)")
      }
    }
    do {
      return try TestIdentityProvider(pem: pem + [UInt8(ascii: "\n")])
    } catch {
      throw LocalProjectError(
        .failed, "\(testIssuerKeyFile) is damaged (\(error)); remove it to make a new key")
    }
  }
}
