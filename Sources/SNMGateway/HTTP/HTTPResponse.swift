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
  /// A body sent from a file instead of `body` (a Storage download).
  public var bodyFile: HTTPFileBody?
  /// The rest of a body produced while it is sent (rows as the database returns them), after
  /// `body`; the answer then goes with `Transfer-Encoding: chunked`.
  public var bodyStream: HTTPStreamedBody?
  /// Switches the connection to another protocol (``HTTPUpgrade``): the 101 is written from it,
  /// `status`, `headers` and `body` are not.
  public var upgrade: HTTPUpgrade?
  /// The status line's reason phrase when not the standard one for `status` (PostgREST's
  /// `RAISE SQLSTATE 'PGRST'` with a `status_text`).
  public var reason: String?

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
}
