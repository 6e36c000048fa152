import SNMNetwork
import SNMWire

/// What a builder chain does: the first call of the chain (`fetchData()`, `insertData()`, ...).
public enum SupabaseDBAction: Sendable, Hashable {
  case fetch
  case insert
  case update
  case upsert
  case delete
  /// One row inserted or replaced, named by its primary key in the filters: PUT.
  case put
  /// A function call: POST with the arguments as the body, or GET with them in the query.
  case rpc(function: String, get: Bool)

  /// The HTTP method PostgREST expects.
  public var method: HTTPMethod {
    switch self {
    case .fetch: .get
    case .insert, .upsert: .post
    case .update: .patch
    case .delete: .delete
    case .put: .put
    case .rpc(_, let get): get ? .get : .post
    }
  }

  /// `true` for insert, update, upsert and delete: they say `Prefer: return=...`.
  public var isWrite: Bool {
    switch self {
    case .insert, .update, .upsert, .delete, .put: true
    case .fetch, .rpc: false
    }
  }

  /// The manager call that starts the chain, as Swift: `insertData()`, `rpc("f", get: true)`.
  public var swiftCall: String {
    switch self {
    case .fetch: "fetchData()"
    case .insert: "insertData()"
    case .update: "updateData()"
    case .upsert: "upsertData()"
    case .delete: "deleteData()"
    case .put: "putData()"
    case .rpc(let function, let get):
      "rpc(\(SwiftLiteral.string(function))\(get ? ", get: true" : ""))"
    }
  }
}

/// One call of a builder chain, recorded so a request can print the chain that made it.
public enum SupabaseDBCall: Sendable, Hashable {
  case start(SupabaseDBAction)
  case setTable(String, schema: String?)
  case setBody(JSONValue)
  case setQuery([SupabaseQueryParameter])
}
