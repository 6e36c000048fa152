/// A refusal from the Auth server (GoTrue): HTTP status, `error_code` and message.
///
/// ```swift
/// do { _ = try await auth.signIn(email: email, password: password) }
/// catch let error as SupabaseAuthError where error.code == .invalidCredentials { ... }
/// ```
/// Decoded from all three of GoTrue's error bodies (see `SupabaseAuthError(status:body:)`); the
/// message is the server's own text and never holds a token or password.
public struct SupabaseAuthError: Error, Sendable, Hashable {
  /// The HTTP status (400, 401, 403, 422, 429, ...).
  public let status: Int
  /// The server's `error_code` (``AuthErrorCode/unknown`` when the body named none).
  public let code: AuthErrorCode
  /// The server's message, or a short description of the status when it sent none.
  public let message: String
  /// For `weak_password`: `length`, `characters`, `pwned`.
  public let weakPasswordReasons: [String]
  /// The answer's `Retry-After` header (a 429's), when sent.
  public var retryAfter: String?
  /// The path the refused request went to (`/auth/v1/token`), when known.
  public var path: String?

  public init(status: Int, code: AuthErrorCode, message: String, weakPasswordReasons: [String] = [])
  {
    self.status = status
    self.code = code
    self.message = message
    self.weakPasswordReasons = weakPasswordReasons
  }

  /// `true` when the server says the session is gone for good (the refresh token is unknown or
  /// spent, the session was ended or timed out): snm deletes the stored session.
  public var endsSession: Bool { AuthErrorCode.endingSession.contains(code) }
}

extension SupabaseAuthError: CustomStringConvertible {
  /// `auth server answered 400: Invalid login credentials (invalid_credentials)`.
  public var description: String {
    var text = "auth server answered \(status): \(message)"
    if code != .unknown { text += " (\(code))" }
    if !weakPasswordReasons.isEmpty {
      text += "\nweak password: " + weakPasswordReasons.joined(separator: ", ")
    }
    return text
  }
}
