import SNMGateway
import SNMWire

/// The answers the local runner gives in a function's stead, in hosted Supabase's words (the
/// Supabase CLI's `functions serve` main service has the same).
///
/// ```swift
/// FunctionErrorResponse.notFound          // 404 text/plain "Function not found"
/// FunctionErrorResponse.bootError         // 503 {"code":"BOOT_ERROR",...}
/// ```
enum FunctionErrorResponse {
  /// 404 `Function not found` (text), for a name no function has.
  static var notFound: HTTPResponse {
    var headers = HTTPHeaders()
    headers["Content-Type"] = "text/plain;charset=UTF-8"
    return HTTPResponse(status: 404, headers: headers, body: Array("Function not found".utf8))
  }

  /// 401 `{"msg": ...}` for a call `verify_jwt` refuses.
  static func unauthorized(_ message: String) -> HTTPResponse {
    .json(status: 401, .object([.init("msg", .string(message))]))
  }

  static let invalidJWT = "Invalid JWT"
  static let missingHeader = "Error: Missing authorization header"
  static let notBearer = "Error: Auth header is not 'Bearer {token}'"

  /// 503 BOOT_ERROR: the function's process did not start listening.
  static var bootError: HTTPResponse {
    coded(503, "BOOT_ERROR", "Worker failed to boot (please check logs)")
  }

  /// 500 WORKER_ERROR: the handler threw, or the process ended during the call.
  static var workerError: HTTPResponse {
    coded(500, "WORKER_ERROR", "Function exited due to an error (please check logs)")
  }

  /// 546 WORKER_LIMIT: the call ran past the wall clock, or the function past its memory.
  static var workerLimit: HTTPResponse {
    coded(
      546, "WORKER_LIMIT", "Worker failed to respond due to a resource limit (please check logs)")
  }

  static func coded(_ status: Int, _ code: String, _ message: String) -> HTTPResponse {
    .json(
      status: status, .object([.init("code", .string(code)), .init("message", .string(message))]))
  }
}
