import Foundation

/// A signed-in session: the tokens GoTrue issued, when they expire, and the user.
///
/// ```swift
/// let session = try await auth.signInAnonymously()
/// await SessionManager.shared.saveSession(for: session)
/// session.expiresAt.timeIntervalSince(now)   // seconds left
/// ```
/// Stored as GoTrue's own JSON (snake_case) plus `obtained_at`. `description` never shows tokens.
public struct SupabaseSession: Sendable, Hashable, Codable {
  /// The JWT sent as `Authorization: Bearer`. Secret: never printed.
  public var accessToken: String
  /// The single-use token that buys the next session. Secret: never printed.
  public var refreshToken: String
  public var tokenType: String
  /// The access token's lifetime in seconds, as issued.
  public var expiresIn: Double
  /// When the access token expires.
  public var expiresAt: Date
  /// When this client received the session (sign-in or refresh), by its own clock.
  public var obtainedAt: Date
  public var user: SupabaseUser

  public init(
    accessToken: String, refreshToken: String, tokenType: String = "bearer", expiresIn: Double,
    expiresAt: Date, obtainedAt: Date, user: SupabaseUser
  ) {
    self.accessToken = accessToken
    self.refreshToken = refreshToken
    self.tokenType = tokenType
    self.expiresIn = expiresIn
    self.expiresAt = expiresAt
    self.obtainedAt = obtainedAt
    self.user = user
  }

  enum CodingKeys: String, CodingKey {
    case accessToken = "access_token"
    case refreshToken = "refresh_token"
    case tokenType = "token_type"
    case expiresIn = "expires_in"
    case expiresAt = "expires_at"
    case obtainedAt = "obtained_at"
    case user
  }

  /// Decodes snm's stored form (GoTrue's session JSON plus `obtained_at`; dates in Unix seconds).
  /// A missing `expires_at` is `obtained_at + expires_in`. A session with a ``problem`` (an empty
  /// token, a date out of range) is `DecodingError.dataCorrupted` naming it.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    accessToken = try container.decode(String.self, forKey: .accessToken)
    refreshToken = try container.decode(String.self, forKey: .refreshToken)
    tokenType = try container.decodeIfPresent(String.self, forKey: .tokenType) ?? "bearer"
    expiresIn = try container.decodeIfPresent(Double.self, forKey: .expiresIn) ?? 3600
    func date(_ key: CodingKeys) throws -> Date? {
      guard let seconds = try container.decodeIfPresent(Double.self, forKey: key) else {
        return nil
      }
      guard let date = Self.date(unixSeconds: seconds) else {
        throw DecodingError.dataCorrupted(
          .init(codingPath: [key], debugDescription: "bad '\(key.rawValue)'"))
      }
      return date
    }
    guard let obtained = try date(.obtainedAt) else {
      throw DecodingError.keyNotFound(
        CodingKeys.obtainedAt, .init(codingPath: [], debugDescription: "no 'obtained_at'"))
    }
    obtainedAt = obtained
    guard Self.validSeconds.contains(expiresIn) else {
      throw DecodingError.dataCorrupted(
        .init(codingPath: [CodingKeys.expiresIn], debugDescription: "bad 'expires_in'"))
    }
    expiresAt = try date(.expiresAt) ?? obtainedAt.addingTimeInterval(expiresIn)
    user = try container.decode(SupabaseUser.self, forKey: .user)
    if let problem {
      throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: problem))
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(accessToken, forKey: .accessToken)
    try container.encode(refreshToken, forKey: .refreshToken)
    try container.encode(tokenType, forKey: .tokenType)
    try container.encode(expiresIn, forKey: .expiresIn)
    try container.encode(expiresAt.timeIntervalSince1970.rounded(), forKey: .expiresAt)
    try container.encode(obtainedAt.timeIntervalSince1970, forKey: .obtainedAt)
    try container.encode(user, forKey: .user)
  }

  /// Seconds until the access token expires (negative once it has).
  public func timeLeft(now: Date) -> TimeInterval {
    expiresAt.timeIntervalSince(now)
  }

  /// The access token's claims (role, session id), read without checking the signature.
  public var claims: AccessTokenClaims { AccessTokenClaims(jwt: accessToken) }
}

extension SupabaseSession: CustomStringConvertible, CustomDebugStringConvertible {
  /// The user and expiry; tokens are left out.
  public var description: String {
    "SupabaseSession(user: \(user.id.uuidString.lowercased()), expiresAt: "
      + "\(Int(exactly: expiresAt.timeIntervalSince1970.rounded(.down)) ?? 0), "
      + "accessToken: <redacted>, "
      + "refreshToken: <redacted>)"
  }

  public var debugDescription: String { description }
}
