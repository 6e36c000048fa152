import Foundation
import SNMNetwork
import SNMWire

/// Multi-factor authentication with TOTP (GoTrue's `/factors`): enrol a factor, challenge it,
/// answer the challenge (the session becomes aal2), remove it.
///
/// ```swift
/// let factor = try await auth.enrollTOTP(accessToken: token, friendlyName: "phone", issuer: nil)
/// factor["totp"]?["secret"]   // for the authenticator app; also `uri` (otpauth://)
/// let challenge = try await auth.challengeFactor(accessToken: token, factorID: id)
/// let session = try await auth.verifyFactor(
///   accessToken: token, factorID: id, challengeID: challenge, code: "123456")
/// ```
extension SupabaseAuthManager {
  /// `GET /auth/v1/user`'s `factors` (GoTrue lists a user's factors there, as supabase-js'
  /// `mfa.listFactors` reads them).
  public func factors(accessToken: String) async throws -> [JSONValue] {
    try await userJSON(accessToken: accessToken)["factors"]?.arrayValue ?? []
  }

  /// `POST /auth/v1/factors`: `{id, type, friendly_name, totp: {qr_code, secret, uri}}`.
  public func enrollTOTP(accessToken: String, friendlyName: String?, issuer: String?)
    async throws -> JSONValue
  {
    let call = AuthEndpoint.enrollFactor(
      accessToken: accessToken, friendlyName: friendlyName, issuer: issuer)
    let factor = try json(from: try await send(call), what: "a factor")
    guard factor["id"]?.stringValue != nil else { throw AuthResponseError.malformed("no 'id'") }
    return factor
  }

  /// `POST /auth/v1/factors/{id}/challenge`: the challenge's id.
  public func challengeFactor(accessToken: String, factorID: String) async throws -> String {
    let call = AuthEndpoint.challengeFactor(accessToken: accessToken, factorID: factorID)
    let challenge = try json(from: try await send(call), what: "a challenge")
    guard let id = challenge["id"]?.stringValue else {
      throw AuthResponseError.malformed("no 'id'")
    }
    return id
  }

  /// `POST /auth/v1/factors/{id}/verify`: the aal2 session.
  public func verifyFactor(
    accessToken: String, factorID: String, challengeID: String, code: String
  ) async throws -> SupabaseSession {
    try await session(
      from: .verifyFactor(
        accessToken: accessToken, factorID: factorID, challengeID: challengeID, code: code))
  }

  /// `DELETE /auth/v1/factors/{id}`.
  public func unenrollFactor(accessToken: String, factorID: String) async throws {
    _ = try await send(.unenrollFactor(accessToken: accessToken, factorID: factorID))
  }
}
