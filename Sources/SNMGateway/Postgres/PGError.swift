/// An error from PostgreSQL or from talking to it, with the server's fields when there are any.
///
/// ```swift
/// do { _ = try connection.execute("select 1/0") } catch let error {
///   print(error.sqlState ?? "-", error.message)   // "22012 division by zero"
/// }
/// ```
public struct PGError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What went wrong, in the wrapper's terms.
  public enum Kind: Sendable, Equatable {
    /// The server answered the statement with an error (`sqlState` is set).
    case server
    /// Could not connect, or the connection broke (`sqlState` may be set, e.g. 08006).
    case connection
    /// Every pooled connection stayed busy for longer than the pool's wait limit.
    case poolTimeout
    /// The client library refused the call (bad parameters, out of memory, protocol state).
    case client
    /// The statements were cancelled: their deadline passed or their client left (`PGInterrupt`).
    case interrupted(PGInterrupt.Reason)
  }

  public var kind: Kind
  /// The five-character SQLSTATE (`23505`), when the server sent one.
  public var sqlState: String?
  /// The primary message (`duplicate key value violates unique constraint "x_pkey"`).
  public var message: String
  /// The server's DETAIL field, if any.
  public var detail: String?
  /// The server's HINT field, if any.
  public var hint: String?

  public init(
    kind: Kind, sqlState: String? = nil, message: String, detail: String? = nil,
    hint: String? = nil
  ) {
    self.kind = kind
    self.sqlState = sqlState
    self.message = message
    self.detail = detail
    self.hint = hint
  }

  public var description: String {
    var text = sqlState.map { "\($0): \(message)" } ?? message
    if let detail { text += " (\(detail))" }
    return text
  }
}
