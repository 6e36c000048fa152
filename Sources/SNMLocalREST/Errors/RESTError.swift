import SNMGateway
import SNMWire

/// An error answer of the REST gateway, in PostgREST's shape.
///
/// The body is `{"code", "details", "hint", "message"}` (keys in the order PostgREST writes them);
/// `code` is a PostgREST code (`PGRST116`) or a Postgres SQLSTATE (`23505`). Build one from the
/// catalog (`RESTError.singularity(rows: 2)`) or from a Postgres error
/// (`RESTError.postgres(...)`).
public struct RESTError: Error, Sendable, Equatable {
  /// The HTTP status.
  public var status: Int
  /// PostgREST code or SQLSTATE.
  public var code: String
  public var message: String
  /// A string, an array (ambiguous embeds) or null.
  var details: JSONValue = .null
  /// A string or null.
  var hint: JSONValue = .null
  /// Extra response headers (e.g. `WWW-Authenticate` on 401).
  public var headers: [(String, String)] = []
  /// The status line's reason phrase when not the standard one (`RAISE SQLSTATE 'PGRST'`'s
  /// `status_text`, a `PTnnn` code's message).
  public var reason: String?

  public static func == (lhs: RESTError, rhs: RESTError) -> Bool {
    lhs.status == rhs.status && lhs.body == rhs.body
  }

  /// The details as plain text, when they are a string.
  public var detailsText: String? { details.stringValue }

  /// The hint as plain text, when there is one.
  public var hintText: String? { hint.stringValue }

  /// The JSON body.
  public var body: String {
    JSONValue.object([
      .init("code", .string(code)), .init("details", details), .init("hint", hint),
      .init("message", .string(message)),
    ]).serialized()
  }

  /// The error as an HTTP answer: status, JSON body, `Proxy-Status`, and its extra headers.
  public var response: HTTPResponse {
    var all: HTTPHeaders = ["Proxy-Status": "PostgREST; error=\(code)"]
    for (name, value) in headers { all.append(name: name, value: value) }
    var response = HTTPResponse.json(status: status, body, headers: all)
    response.reason = reason
    return response
  }
}
