import SNMGateway
import SNMWire

/// CORS on `/rest/v1` as PostgREST 13 answers it (Cors.hs, over wai-cors): permissive, for a
/// request that names its `Origin`.
///
/// A preflight (`OPTIONS` with `Origin` and `Access-Control-Request-Method`) is answered 200 with
/// no body: any origin, PostgREST's methods, the headers asked for (after `Authorization`, with
/// the simple ones not asked for), cached for a day:
///
///     OPTIONS /rest/v1/items  Origin: http://app.test
///       Access-Control-Request-Method: POST  Access-Control-Request-Headers: apikey,content-type
///     → 200 Access-Control-Allow-Origin: *
///           Access-Control-Allow-Methods: GET, POST, PATCH, PUT, DELETE, OPTIONS, HEAD
///           Access-Control-Allow-Headers: Authorization, apikey, content-type, Accept, ...
///           Access-Control-Max-Age: 86400
///
/// Any other request with an `Origin` has its answer expose the headers a browser's script may
/// read (`Content-Range`, `Content-Location`, `Location`, ...). A preflight wai-cors refuses (a
/// method not on the list, a header list it cannot parse) is left to the gateway, as wai-cors
/// leaves it to PostgREST (`corsIgnoreFailures`).
enum RESTCORS {
  static let methods = "GET, POST, PATCH, PUT, DELETE, OPTIONS, HEAD"
  static let methodList = ["GET", "POST", "PATCH", "PUT", "DELETE", "OPTIONS", "HEAD"]
  static let exposed =
    "Content-Encoding, Content-Location, Content-Range, Content-Type, Date, Location, Server, "
    + "Transfer-Encoding, Range-Unit"
  /// wai-cors's simple headers but `Content-Type`, allowed whether asked for or not.
  static let simpleHeaders = ["Accept", "Accept-Language", "Content-Language"]

  /// The answer to a preflight, or nil for a request that is none (or one wai-cors refuses).
  static func preflight(_ request: HTTPRequest) -> HTTPResponse? {
    guard request.method == "OPTIONS", request.headers["Origin"] != nil,
      let method = request.headers["Access-Control-Request-Method"], methodList.contains(method)
    else { return nil }
    var headers = HTTPHeaders()
    headers.append(name: "Access-Control-Allow-Origin", value: "*")
    headers.append(name: "Access-Control-Allow-Methods", value: methods)
    if let asked = request.headers["Access-Control-Request-Headers"] {
      guard let allowed = allowedHeaders(asked) else { return nil }
      headers.append(name: "Access-Control-Allow-Headers", value: allowed)
    }
    headers.append(name: "Access-Control-Max-Age", value: "86400")
    return HTTPResponse(status: 200, headers: headers)
  }

  /// `Authorization`, the names asked for as written, then the simple headers not among them;
  /// nil when a name is empty or holds a character no header name may.
  static func allowedHeaders(_ asked: String) -> String? {
    let names = asked.split(separator: ",", omittingEmptySubsequences: false).map {
      $0.trimmingCharacters(in: " \t")
    }
    if names == [""] { return (["Authorization"] + simpleHeaders).joined(separator: ", ") }
    guard names.allSatisfy({ !$0.isEmpty && $0.utf8.allSatisfy(isNameByte) }) else { return nil }
    var allowed = ["Authorization"] + names
    for simple in simpleHeaders where !allowed.contains(where: { HTTPHeaders.sameName($0, simple) })
    {
      allowed.append(simple)
    }
    return allowed.joined(separator: ", ")
  }

  /// A byte RFC 2616's token allows in a header name (wai-cors's `isHttpHeaderNameChar`).
  private static func isNameByte(_ byte: UInt8) -> Bool {
    byte >= 33 && byte <= 126 && !Array(#"()<>@,;:\"/[]?={}"#.utf8).contains(byte)
  }

  /// `response` with the exposed headers when `request` names its origin (not a preflight).
  /// Consumed: the answer is moved through, not copied.
  static func exposing(_ response: consuming HTTPResponse, for request: HTTPRequest)
    -> HTTPResponse
  {
    guard request.method != "OPTIONS", request.headers.first(lowercased: "origin") != nil else {
      return response
    }
    var response = response
    response.headers["Access-Control-Expose-Headers"] = exposed
    return response
  }
}
