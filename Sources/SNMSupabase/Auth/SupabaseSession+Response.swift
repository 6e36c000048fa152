import Foundation
import SNMNetwork
import SNMWire

extension SupabaseSession {
  /// The session in a GoTrue answer (`/signup`, `/token`), stamped as obtained at `now`.
  ///
  /// ```swift
  /// let session = try SupabaseSession(response: body, now: Date())
  /// ```
  /// - Throws: `AuthResponseError.missingSession` when the body is a user without tokens (sign-up
  ///   waiting for email confirmation: a user with its UUID `id`, bare or as `user`),
  ///   `.malformed` when it is not a session at all (`bad 'user'`, `bad 'id'`: a user without a
  ///   UUID id) or a number in it is out of range (``problem``).
  public init(response body: Data, now: Date) throws(AuthResponseError) {
    let wire: Wire
    do {
      wire = try JSONDecoder().decode(Wire.self, from: body)
    } catch {
      throw .malformed(Self.reason(error))
    }
    guard let accessToken = wire.access_token, let refreshToken = wire.refresh_token,
      !accessToken.isEmpty, !refreshToken.isEmpty
    else {
      if wire.user != nil { throw .missingSession }
      guard let id = wire.id else { throw .malformed("no access_token") }
      // A bare user's id is a UUID, as any user's (`SupabaseUser`): `{"id": "x"}` is no user.
      throw UUID(uuidString: id) != nil ? .missingSession : .malformed("bad 'id'")
    }
    guard let user = wire.user else { throw .malformed("no user") }
    let expiresIn = wire.expires_in ?? 3600
    guard Self.validSeconds.contains(expiresIn) else { throw .malformed("bad 'expires_in'") }
    var expiresAt = now.addingTimeInterval(expiresIn)
    if let seconds = wire.expires_at {
      guard let date = Self.date(unixSeconds: seconds) else { throw .malformed("bad 'expires_at'") }
      expiresAt = date
    }
    self.init(
      accessToken: accessToken, refreshToken: refreshToken, tokenType: wire.token_type ?? "bearer",
      expiresIn: expiresIn, expiresAt: expiresAt, obtainedAt: now, user: user)
    if let problem { throw .malformed(problem) }
  }

  /// GoTrue's `AccessTokenResponse` (or a bare user, for sign-ups that need confirmation).
  private struct Wire: Decodable {
    var access_token: String?
    var refresh_token: String?
    var token_type: String?
    var expires_in: Double?
    var expires_at: Double?
    var user: SupabaseUser?
    var id: String?
  }

  private static func reason(_ error: any Error) -> String {
    switch error {
    case DecodingError.dataCorrupted(let context), DecodingError.typeMismatch(_, let context),
      DecodingError.valueNotFound(_, let context), DecodingError.keyNotFound(_, let context):
      let path = context.codingPath.map(\.stringValue).joined(separator: ".")
      return path.isEmpty ? "not JSON" : "bad '\(path)'"
    default:
      return "not JSON"
    }
  }
}

extension AuthResponseError {
  /// The JSON object `response` holds; anything else is ``malformed(_:)`` ("not `what`").
  static func object(in response: SNMResponse, what: String) throws(AuthResponseError)
    -> JSONValue
  {
    guard let value = try? JSONValue(parsing: response.body), value.objectValue != nil else {
      throw .malformed("not \(what)")
    }
    return value
  }
}

/// A 2xx answer from the Auth server that is not the session snm asked for.
public enum AuthResponseError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The body is not a GoTrue session (`reason` says what is missing; no body text is quoted).
  case malformed(String)
  /// A user came back without tokens: the project wants the email confirmed first.
  case missingSession

  public var description: String {
    switch self {
    case .malformed(let reason): "the auth server's answer is not a session: \(reason)"
    case .missingSession:
      "signed up, but the project requires confirming the email before signing in"
    }
  }
}
