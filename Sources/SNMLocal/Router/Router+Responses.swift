import Foundation
import SNMGateway
import SNMWire

extension Router {
  /// The answer to a CORS preflight, as Supabase's gateway gives it.
  static func preflight(_ request: HTTPRequest) -> HTTPResponse {
    var headers = HTTPHeaders()
    headers["Access-Control-Allow-Methods"] = "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS"
    headers["Access-Control-Allow-Headers"] =
      request.headers["Access-Control-Request-Headers"]
      ?? "authorization, x-client-info, apikey, content-type, prefer, range"
    headers["Access-Control-Max-Age"] = "3600"
    return HTTPResponse(status: 200, headers: headers)
  }
}
