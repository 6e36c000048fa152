import Foundation
import SNMNetwork
import SNMWire

/// A built request: the exact endpoint it sends plus the chain that made it, so it can print itself
/// (decoded query pairs, encoded URL, curl, Swift, explain JSON).
///
/// ```swift
/// let request = try remoteDBManager.fetchData().setTable("user_info")
///   .setQuery(.select("*"), .equal("name", "Kim Lee")).build()
/// request.endpoint.url    // http://127.0.0.1:54321/rest/v1/user_info?select=%2A&name=eq.Kim%20Lee
/// print(request.curlCommand())
/// ```
public struct SupabaseDBRequest: Sendable, Hashable, SNMRequestConvertible {
  /// How many rows the caller asked for.
  public enum Expectation: Sendable, Hashable {
    case rows
    case single
    case maybeSingle
  }

  /// What goes on the wire (without `apikey`, `Authorization`, `X-Client-Info`).
  public let endpoint: Endpoint
  public let action: SupabaseDBAction
  /// The body as JSON (what `endpoint.body` holds as bytes).
  public let body: JSONValue?
  /// The builder calls, in order.
  public let calls: [SupabaseDBCall]
  public let expectation: Expectation
  /// `true` when the answer is CSV text rather than JSON.
  public let acceptsCSV: Bool
  /// `true` when the answer is an execution plan (`plan`): Postgres' text, not rows.
  public let acceptsPlan: Bool

  init(
    baseURL: String, action: SupabaseDBAction, table: String?, schema: String?, body: JSONValue?,
    parameters: [SupabaseQueryParameter], calls: [SupabaseDBCall]
  ) throws(SupabaseDBError) {
    var compiler = SupabaseQueryCompiler(action: action)
    try compiler.validate(
      table: table, body: body, csvBody: parameters.contains { $0.kind == .csvBody })
    try compiler.add(parameters)
    let target: String
    if case .rpc(let function, _) = action {
      target = "/rest/v1/rpc/" + Endpoint.encodePathSegment(function)
    } else {
      target = "/rest/v1/" + Endpoint.encodePathSegment(table ?? "")
    }
    let sentBody = try compiler.finish(body: body)
    self.action = action
    self.body = sentBody
    self.calls = calls
    self.expectation = compiler.expectation
    self.acceptsCSV = compiler.csv
    self.acceptsPlan = compiler.plan != nil
    let bytes: Data? =
      if compiler.csvBody, case .string(let text)? = sentBody {
        Data(text.utf8)
      } else {
        sentBody.map { Data($0.serializedBytes()) }
      }
    var endpoint = Endpoint(
      baseURL: baseURL, path: target, method: compiler.head ? .head : action.method,
      query: compiler.query,
      headers: compiler.headers(body: sentBody, schema: compiler.schema ?? schema), body: bytes)
    endpoint.answerBody = compiler.answerBody
    endpoint.answerShape = compiler.answerShape
    endpoint.effect = compiler.effect
    self.endpoint = endpoint
  }

  /// The endpoint itself.
  public func asEndpoint() -> Endpoint { endpoint }

  /// The decoded query pairs, in order.
  public var query: [Endpoint.QueryItem] { endpoint.query }

  /// The exact URL sent.
  public var url: String { endpoint.url }
}
