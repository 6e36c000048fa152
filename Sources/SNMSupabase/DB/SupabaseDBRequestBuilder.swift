import Foundation
import SNMNetwork
import SNMWire

/// What a DB builder chain holds in every phase; a change of phase carries it over whole
/// (a type of its own, outside the generic builder, so that every phase holds the same one).
struct SupabaseDBChain: Sendable {
  let manager: SupabaseDBManager
  var calls: [SupabaseDBCall]
  var action: SupabaseDBAction
  var table: String?
  var schema: String?
  var body: JSONValue?
  var parameters: [SupabaseQueryParameter] = []
}

/// A builder chain: a value that each call copies and extends. `request()` (and `build()`) exist
/// only in the ``SupabaseDBPhase/Ready`` phase, after `setTable` (or from `rpc`).
///
/// ```swift
/// try await remoteDBManager.updateData().setTable("user_info")
///   .setBody(["name": "Lee"]).setQuery(.equal("id", userID)).request()
/// ```
public struct SupabaseDBRequestBuilder<Phase: SupabaseDBBuilderPhase>: Sendable {
  var chain: SupabaseDBChain

  /// Everything the chain said so far, in order.
  public var calls: [SupabaseDBCall] { chain.calls }

  init(manager: SupabaseDBManager, action: SupabaseDBAction) {
    chain = SupabaseDBChain(manager: manager, calls: [.start(action)], action: action)
  }

  private init<Other>(_ other: SupabaseDBRequestBuilder<Other>) {
    chain = other.chain
  }

  /// The JSON body: the row(s) to write, or the function's arguments. Key order is kept.
  public func setBody(_ body: JSONValue) -> Self {
    var copy = self
    copy.chain.body = body
    copy.chain.calls.append(.setBody(body))
    return copy
  }

  /// The JSON body from an `Encodable` value, encoded with `JSONEncoder` (whose key order is its
  /// own: use ``setBody(_:)`` with a ``JSONValue`` literal to choose the order).
  ///
  /// ```swift
  /// try remoteDBManager.insertData().setTable("dog_profile").setBody(encoding: newDog)
  /// ```
  ///
  /// - Throws: the encoder's error.
  public func setBody(encoding value: some Encodable) throws -> Self {
    let data = try JSONEncoder().encode(value)
    do {
      return setBody(try JSONValue(parsing: data))
    } catch {
      throw SupabaseDBError.invalidBody(chain.action, reason: "could not be encoded: \(error)")
    }
  }

  /// Adds filters and modifiers, after those already given.
  public func setQuery(_ parameters: SupabaseQueryParameter...) -> Self {
    setQuery(parameters)
  }

  /// Adds filters and modifiers (array form).
  public func setQuery(_ parameters: [SupabaseQueryParameter]) -> Self {
    var copy = self
    copy.chain.parameters += parameters
    copy.chain.calls.append(.setQuery(parameters))
    return copy
  }
}

extension SupabaseDBRequestBuilder where Phase == SupabaseDBPhase.NeedsTable {
  /// The table (or view) to act on; `schema` other than `public` sends `Accept-Profile` or
  /// `Content-Profile`.
  public func setTable(_ table: String, schema: String? = nil)
    -> SupabaseDBRequestBuilder<SupabaseDBPhase.Ready>
  {
    var ready = SupabaseDBRequestBuilder<SupabaseDBPhase.Ready>(self)
    ready.chain.table = table
    ready.chain.schema = schema
    ready.chain.calls.append(.setTable(table, schema: schema))
    return ready
  }
}

extension SupabaseDBRequestBuilder where Phase == SupabaseDBPhase.Ready {
  /// The request this chain describes, without sending it (what `snm explain` prints).
  ///
  /// - Throws: ``SupabaseDBError`` when the table, function or body is missing or misshapen, or a
  ///   parameter does not fit.
  public func build() throws(SupabaseDBError) -> SupabaseDBRequest {
    try SupabaseDBRequest(
      baseURL: chain.manager.config.url, action: chain.action, table: chain.table,
      schema: chain.schema, body: chain.body, parameters: chain.parameters, calls: chain.calls)
  }

  /// Builds the request, asks for the access token and sends it.
  ///
  /// - Throws: ``SupabaseDBError`` before sending; ``SNMNetworkError`` from the network or the
  ///   server (`.http` carries PostgREST's code, message, details and hint); the token closure's
  ///   own errors.
  public func request() async throws -> SupabaseDBResponse {
    try await request(try build())
  }

  /// Sends `request`, the one ``build()`` made of this chain, with the access token: for a
  /// caller that built it already (to print it, or to read it beside the answer), so that it is
  /// not built twice.
  ///
  /// - Throws: what ``request()`` throws once the request is built.
  public func request(_ request: SupabaseDBRequest) async throws -> SupabaseDBResponse {
    let token = try await chain.manager.link.accessToken()
    let response = try await chain.manager.provider.send(
      endpoint: request.endpoint, accessToken: token)
    return try SupabaseDBResponse(request: request, response: response)
  }
}
