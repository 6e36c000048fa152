import SNMGateway
import SNMWire

/// `/functions/v1/<name>[/sub/path]` as a gateway service: Supabase's Edge Functions, each run by
/// a stock Deno (`FunctionRunner`), behind hosted's gateway rules.
///
/// ```swift
/// let service = FunctionsService(runner: runner, keys: keys, verifier: { token in ... })
/// ```
/// The gateway asks nothing of the request (a function with `verify_jwt = false` takes calls
/// without any key, as webhooks make them). Then, as Supabase's gateway: a new-format API key
/// in `apikey` becomes its role's JWT in `Authorization` when none (or the key itself) is there,
/// a legacy key in `apikey` is the token when `Authorization` is missing; a function that
/// verifies JWTs (the default) needs `Authorization: Bearer <a JWT of the project's>`, else 401
/// `{"msg":"Invalid JWT"}` (or the missing-header message). The function sees the path without
/// `/functions/v1` (`/hello/sub?x=1`), and every header.
package struct FunctionsService: GatewayService {
  package let runner: FunctionRunner
  let keys: ProjectKeys
  /// Whether a token is a valid JWT of the project's (signature and times; any role).
  let verifies: @Sendable (String) -> Bool

  package init(
    runner: FunctionRunner, keys: ProjectKeys, verifies: @escaping @Sendable (String) -> Bool
  ) {
    self.runner = runner
    self.keys = keys
    self.verifies = verifies
  }

  package var prefix: String { "/functions/v1" }
  package var admission: GatewayAdmission { .open }
  /// A function answers its own CORS preflights (hosted passes OPTIONS on).
  package var answersPreflights: Bool { true }

  package func respond(_ request: HTTPRequest, caller: GatewayCaller) -> HTTPResponse {
    let rest = request.path.dropFirst(prefix.count)
    let trimmed = rest.drop(while: { $0 == "/" })
    let name = String(trimmed.prefix(while: { $0 != "/" }))
    let decodedName = PercentEncoding.decode(name, plusIsSpace: false)
    let definition: FunctionDefinition?
    do {
      definition = try runner.catalog.definition(named: decodedName)
    } catch {
      runner.log?.write(decodedName, "snm: failed to boot: \(error)")
      return FunctionErrorResponse.bootError
    }
    guard let definition else { return FunctionErrorResponse.notFound }
    var request = request
    request.headers = Self.authorizing(request.headers, keys: keys)
    if request.method != "OPTIONS", definition.verifyJWT {
      guard let header = request.headers["Authorization"] else {
        return FunctionErrorResponse.unauthorized(FunctionErrorResponse.missingHeader)
      }
      let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: false)
      guard parts.count == 2, parts[0] == "Bearer" else {
        return FunctionErrorResponse.unauthorized(FunctionErrorResponse.notBearer)
      }
      guard verifies(String(parts[1])) else {
        return FunctionErrorResponse.unauthorized(FunctionErrorResponse.invalidJWT)
      }
    }
    var target = "/" + String(trimmed)
    if !request.query.isEmpty { target += "?" + request.query }
    return runner.call(definition, request, target: target)
  }

  /// The headers as Supabase's gateway passes them to a function: `Authorization` from the
  /// `apikey` when the caller sent none (or sent a new-format key there), a new-format key
  /// becoming its role's JWT.
  static func authorizing(_ headers: HTTPHeaders, keys: ProjectKeys) -> HTTPHeaders {
    var headers = headers
    let authorization = headers["Authorization"]
    let sentOpaque = authorization.map { $0.hasPrefix("Bearer sb_") } ?? false
    guard authorization == nil || sentOpaque, let apiKey = headers["apikey"] else {
      return headers
    }
    if let roleToken = keys.jwt(forOpaqueKey: apiKey) {
      headers["Authorization"] = "Bearer " + roleToken
    } else if authorization == nil, !apiKey.hasPrefix("sb_") {
      headers["Authorization"] = "Bearer " + apiKey
    }
    return headers
  }
}
