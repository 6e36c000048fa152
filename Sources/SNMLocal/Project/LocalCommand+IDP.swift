import Foundation
import SNMLocalAuth

/// What `snm local idp token` mints: `--provider apple --email ADDRESS [--nonce RAW]`, and for
/// tests of refusals `--audience`, `--issuer`, `--subject`, `--expires-in`.
public struct TestTokenRequest: Sendable, Equatable {
  public var provider: String?
  public var email: String?
  public var nonce: String?
  public var audience: String?
  public var issuer: String?
  public var subject: String?
  public var expiresIn: Int?

  public init() {}
}

extension LocalCommand {
  /// `snm local idp token --provider apple --email ADDRESS [--nonce RAW]`: prints an id_token
  /// of the project's test issuer, signed with the project's own key (`ProjectState.testIssuer`):
  /// Apple's issuer, the project's Apple client id as audience, the SHA-256 of the nonce, ten
  /// minutes of validity. Only this project accepts it, once started with `--apple`.
  ///
  /// - Throws: `LocalProjectError` when the folder has no project or the key cannot be had.
  func printTestToken() throws(LocalProjectError) -> Int32 {
    guard let state = try ProjectState.load(dataDir: options.dataDir) else {
      throw LocalProjectError(
        .unavailable, "no project in \(options.dataDir) (run snm local start)")
    }
    guard let email = testToken.email else { return 0 }
    var claims = TestIdentityProvider.Claims(email: email, nonce: testToken.nonce)
    if let audience = testToken.audience { claims.audience = audience }
    if let issuer = testToken.issuer { claims.issuer = issuer }
    if let subject = testToken.subject { claims.subject = subject }
    if let seconds = testToken.expiresIn { claims.expiresIn = seconds }
    let issuer = try state.testIssuer()
    do {
      printLine(try issuer.mint(claims, now: Date().timeIntervalSince1970))
    } catch {
      throw LocalProjectError(.failed, "cannot sign the id_token: \(error)")
    }
    if !state.authSwitches.apple {
      printError(
        "snm local: the project does not take Apple id_tokens until started with --apple "
          + "([auth.external.apple] enabled)")
    } else if state.providerKeys["apple"] != nil {
      printError(
        "snm local: the project takes only Apple id_tokens signed by the keys of "
          + "[auth.external.apple] jwks, not the test issuer's: this token will be refused")
    }
    return 0
  }
}
