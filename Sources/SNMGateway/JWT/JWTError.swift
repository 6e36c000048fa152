/// Why a JWT was refused. The REST side answers PGRST301 / PGRST303, the Auth side 403 `bad_jwt`.
///
/// ```swift
/// catch let error as JWTError { error.postgrestCode   // "PGRST303" for .expired
/// ```
public enum JWTError: Error, Sendable, Equatable, CustomStringConvertible {
  /// `Authorization: Bearer` with nothing after it.
  case empty
  /// Not three base64url parts of JSON objects; the text says what is wrong.
  case malformed(String)
  /// The header's `alg` is neither HS256 nor the project's signing key's (`none`, missing, `RS256`
  /// in an ES256 project).
  case unsupportedAlgorithm(String)
  /// The signature does not match the secret.
  case badSignature
  /// `exp` is in the past.
  case expired
  /// `nbf` is in the future.
  case notYetValid
  /// `iat` is in the future.
  case issuedInFuture
  /// An `aud` claim is present and does not name the expected audience.
  case wrongAudience
  /// `exp`, `nbf` or `iat` (the associated name) is present and not a number.
  case claimNotNumber(String)
  /// `aud` is present and neither a string nor an array of strings.
  case audienceNotStringOrArray
  /// The `role` claim names a role the gateway may not switch to.
  case roleNotAssumable(String)
  /// The `role` claim names a role that does not exist (PostgREST: 401 22023).
  case unknownRole(String)

  /// PostgREST's error code: PGRST301 for decoding and signature problems, PGRST303 for claims.
  public var postgrestCode: String {
    switch self {
    case .empty, .malformed, .unsupportedAlgorithm, .badSignature: "PGRST301"
    case .expired, .notYetValid, .issuedInFuture, .wrongAudience, .claimNotNumber,
      .audienceNotStringOrArray:
      "PGRST303"
    case .roleNotAssumable: "42501"
    case .unknownRole: "22023"
    }
  }

  /// The message PostgREST puts in the error body.
  public var message: String {
    switch self {
    case .empty: "Empty JWT is sent in Authorization header"
    case .malformed(let reason): reason
    case .unsupportedAlgorithm: "Wrong or unsupported encoding algorithm"
    case .badSignature: "JWT cryptographic operation failed"
    case .expired: "JWT expired"
    case .notYetValid: "JWT not yet valid"
    case .issuedInFuture: "JWT issued at future"
    case .wrongAudience: "JWT not in audience"
    case .claimNotNumber(let claim): "The JWT '\(claim)' claim must be a number"
    case .audienceNotStringOrArray: "The JWT 'aud' claim must be a string or an array of strings"
    case .roleNotAssumable(let role): "permission denied to set role \"\(role)\""
    case .unknownRole(let role): "role \"\(role)\" does not exist"
    }
  }

  public var description: String { message }
}
