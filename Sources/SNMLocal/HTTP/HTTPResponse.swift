import SNMWire

/// A response a handler returns; the server adds `Content-Length`, `Date` and connection fields.
///
/// ```swift
/// HTTPResponse(status: 204)
/// HTTPResponse.json(status: 200, #"[{"id":1}]"#)
/// HTTPResponse.json(status: 400, .object([.init("code", .string("PGRST100"))]))
/// ```
public struct HTTPResponse: Sendable, Equatable {
  public var status: Int
  public var headers: HTTPHeaders
  public var body: [UInt8]

  public init(status: Int, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) {
    self.status = status
    self.headers = headers
    self.body = body
  }

  /// A response with `Content-Type: application/json; charset=utf-8` and `text` as its body.
  public static func json(
    status: Int, _ text: String, headers: HTTPHeaders = HTTPHeaders()
  ) -> HTTPResponse {
    var all = headers
    all["Content-Type"] = "application/json; charset=utf-8"
    return HTTPResponse(status: status, headers: all, body: Array(text.utf8))
  }

  /// A JSON response serialising `value`.
  public static func json(
    status: Int, _ value: JSONValue, headers: HTTPHeaders = HTTPHeaders()
  ) -> HTTPResponse {
    json(status: status, value.serialized(), headers: headers)
  }

  /// The standard reason phrase for `status` (`Not Found`), or `Unknown`.
  public static func reason(_ status: Int) -> String {
    switch status {
    case 100: "Continue"
    case 200: "OK"
    case 201: "Created"
    case 204: "No Content"
    case 206: "Partial Content"
    case 300: "Multiple Choices"
    case 400: "Bad Request"
    case 401: "Unauthorized"
    case 403: "Forbidden"
    case 404: "Not Found"
    case 405: "Method Not Allowed"
    case 406: "Not Acceptable"
    case 408: "Request Timeout"
    case 409: "Conflict"
    case 411: "Length Required"
    case 413: "Content Too Large"
    case 414: "URI Too Long"
    case 415: "Unsupported Media Type"
    case 416: "Range Not Satisfiable"
    case 422: "Unprocessable Content"
    case 429: "Too Many Requests"
    case 431: "Request Header Fields Too Large"
    case 500: "Internal Server Error"
    case 501: "Not Implemented"
    case 503: "Service Unavailable"
    case 504: "Gateway Timeout"
    case 505: "HTTP Version Not Supported"
    default: "Unknown"
    }
  }
}
