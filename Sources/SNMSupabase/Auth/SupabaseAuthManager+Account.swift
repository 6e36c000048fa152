import Foundation
import SNMNetwork
import SNMWire

/// The account flows beyond signing in: the server's view of the user and changes to it,
/// password reset, one-time codes by mail, and verifying them.
///
/// ```swift
/// let user = try await auth.userJSON(accessToken: token)          // GET /user, as sent
/// try await auth.updateUser(accessToken: token, attributes: .init(data: ["nick": "kim"]))
/// try await auth.sendOTP(to: .email("kim@example.com"), createUser: true)
/// let outcome = try await auth.verifyOTP(to: .email("kim@example.com"), token: "123456", type: "email")
/// ```
/// Throws as the sign-in calls do: ``SupabaseAuthError`` for a refusal (`reauthentication_needed`
/// when a password change needs the nonce of ``reauthenticate(accessToken:)``),
/// ``AuthResponseError`` for an answer that is not what was asked for, `SNMNetworkError` when the
/// server cannot be reached.
extension SupabaseAuthManager {
  /// `GET /auth/v1/user`: the user as the server describes it (metadata, identities, factors).
  public func userJSON(accessToken: String) async throws -> JSONValue {
    try json(from: try await send(.user(accessToken: accessToken)), what: "a user")
  }

  /// `PUT /auth/v1/user`: the user after the change.
  public func updateUser(accessToken: String, attributes: UserAttributes) async throws
    -> JSONValue
  {
    let call = AuthEndpoint.updateUser(accessToken: accessToken, attributes: attributes)
    return try json(from: try await send(call), what: "a user")
  }

  /// `GET /auth/v1/reauthenticate`: the project sends the user a nonce for a password change.
  public func reauthenticate(accessToken: String) async throws {
    _ = try await send(.reauthenticate(accessToken: accessToken))
  }

  /// `POST /auth/v1/recover`: a password-reset mail (GoTrue answers the same for any address).
  public func resetPassword(email: String) async throws {
    _ = try await send(.recover(email: email))
  }

  /// `POST /auth/v1/otp`: a mail with a one-time code and a magic link, or a text with a code.
  public func sendOTP(to recipient: OTPRecipient, createUser: Bool) async throws {
    _ = try await send(.otp(to: recipient, createUser: createUser))
  }

  /// `POST /auth/v1/verify`: the mailed or texted code, for a session (or, the first of an
  /// e-mail change's two codes, ``OTPVerification/halfConfirmed``).
  public func verifyOTP(to recipient: OTPRecipient, token: String, type: String) async throws
    -> OTPVerification
  {
    let response = try await send(.verify(to: recipient, token: token, type: type))
    return try OTPVerification(response: response.body, now: now())
  }

  /// `POST /auth/v1/resend`.
  public func resend(type: String, to recipient: OTPRecipient) async throws {
    _ = try await send(.resend(type: type, to: recipient))
  }

  /// The body of `response` as JSON; an empty or malformed one is ``AuthResponseError``.
  func json(from response: SNMResponse, what: String) throws -> JSONValue {
    try AuthResponseError.object(in: response, what: what)
  }
}
