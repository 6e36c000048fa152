/// Why a builder chain could not become a request. Thrown before anything is sent.
///
/// ```swift
/// do { _ = try manager.insertData().setTable("dog").build() }
/// catch { print(error) }   // insertData() needs a body: call setBody(_:) (insert {...} in snm)
/// ```
public enum SupabaseDBError: Error, Sendable, Hashable {
  /// No table (empty name) for a table action, or no function name for `rpc`.
  case missingTable(SupabaseDBAction)
  /// insert, update and upsert need a body.
  case missingBody(SupabaseDBAction)
  /// fetch and delete take no body.
  case unexpectedBody(SupabaseDBAction)
  /// The body has the wrong shape for the action.
  case invalidBody(SupabaseDBAction, reason: String)
  /// A query parameter that does not fit where it was used.
  case invalidParameter(String)
}

extension SupabaseDBError: CustomStringConvertible {
  /// One lowercase line saying what is missing and how to give it.
  public var description: String {
    switch self {
    case .missingTable(let action):
      if case .rpc = action { return "rpc() needs a function name" }
      return "\(action.swiftCall) needs a table: call setTable(_:) (from <table> in snm)"
    case .missingBody(let action):
      return
        "\(action.swiftCall) needs a body: call setBody(_:) (a JSON object after the action in snm)"
    case .unexpectedBody(let action):
      return "\(action.swiftCall) takes no body"
    case .invalidBody(let action, let reason):
      return "\(action.swiftCall) body \(reason)"
    case .invalidParameter(let reason):
      return reason
    }
  }
}
