/// An error code a server sent: a PostgREST code (`PGRST116`), a Postgres SQLSTATE (`23505`) or a
/// GoTrue `error_code` (`invalid_credentials`). An open set: codes this file does not name still
/// compare and print; other modules add their own static members.
///
/// ```swift
/// if error.code == .uniqueViolation { ... }
/// let custom: SNMErrorCode = "P0001"
/// ```
public struct SNMErrorCode: RawRepresentable, Sendable, Hashable, ExpressibleByStringLiteral,
  CustomStringConvertible
{
  public let rawValue: String

  public init(rawValue: String) { self.rawValue = rawValue }
  public init(_ rawValue: String) { self.rawValue = rawValue }
  public init(stringLiteral value: String) { self.rawValue = value }

  public var description: String { rawValue }
}

// PostgREST's own codes (postgrest-protocol.md §6).
extension SNMErrorCode {
  /// The query string could not be parsed.
  public static let invalidQuery: SNMErrorCode = "PGRST100"
  /// The body is empty or not valid JSON.
  public static let invalidBody: SNMErrorCode = "PGRST102"
  /// `Range`/offset beyond the rows there are (416).
  public static let rangeNotSatisfiable: SNMErrorCode = "PGRST103"
  /// The schema in `Accept-Profile`/`Content-Profile` is not exposed.
  public static let invalidSchema: SNMErrorCode = "PGRST106"
  /// The `Accept` media type is not available.
  public static let unacceptableMediaType: SNMErrorCode = "PGRST107"
  /// A single object was asked for (`single`) but 0 or more than 1 rows matched (406).
  public static let notOneRow: SNMErrorCode = "PGRST116"
  /// No relationship between the tables named in an embed.
  public static let relationshipNotFound: SNMErrorCode = "PGRST200"
  /// More than one relationship fits an embed (300).
  public static let ambiguousRelationship: SNMErrorCode = "PGRST201"
  /// No function with that name and those argument names.
  public static let functionNotFound: SNMErrorCode = "PGRST202"
  /// More than one function overload fits (300).
  public static let ambiguousFunction: SNMErrorCode = "PGRST203"
  /// A column in `columns=` or the body does not exist.
  public static let columnNotFound: SNMErrorCode = "PGRST204"
  /// The table does not exist (v13+).
  public static let tableNotFound: SNMErrorCode = "PGRST205"
  /// The JWT cannot be decoded (and in PostgREST 12, every JWT problem).
  public static let invalidJWT: SNMErrorCode = "PGRST301"
  /// No token sent and anonymous access is disabled.
  public static let anonymousAccessDisabled: SNMErrorCode = "PGRST302"
  /// JWT claims failed validation, e.g. "JWT expired" (v13+).
  public static let jwtClaimsInvalid: SNMErrorCode = "PGRST303"
}

// Postgres SQLSTATEs PostgREST passes through.
extension SNMErrorCode {
  public static let uniqueViolation: SNMErrorCode = "23505"
  public static let foreignKeyViolation: SNMErrorCode = "23503"
  public static let notNullViolation: SNMErrorCode = "23502"
  public static let checkViolation: SNMErrorCode = "23514"
  public static let insufficientPrivilege: SNMErrorCode = "42501"
  public static let undefinedTable: SNMErrorCode = "42P01"
  public static let undefinedColumn: SNMErrorCode = "42703"
  public static let undefinedFunction: SNMErrorCode = "42883"
  public static let invalidTextRepresentation: SNMErrorCode = "22P02"
  public static let raiseException: SNMErrorCode = "P0001"
  public static let queryCanceled: SNMErrorCode = "57014"
}
