/// Why bytes are not an HTTP/1.1 message ``HTTPDecoder`` accepts (or a request not a WebSocket
/// handshake: ``WebSocketHandshakeError``): the status a server answers with (400, 413, 414, 426,
/// 431, 501, 505) and a lowercase message saying why.
///
/// ```swift
/// catch let error as HTTPParseError { respond(error.status, error.message) }
/// ```
public struct HTTPParseError: Error, Sendable, Hashable, CustomStringConvertible {
  public var status: Int
  public var message: String

  public init(status: Int, message: String) {
    self.status = status
    self.message = message
  }

  /// 400 with `message`.
  public static func bad(_ message: String) -> HTTPParseError {
    HTTPParseError(status: 400, message: message)
  }

  /// 431: the fields of a head together past their limit (``HTTPLimits/maxHeaderBytes``).
  public static let fieldsTooLarge = HTTPParseError(status: 431, message: "header fields too large")

  /// 400: an answer's status line past ``HTTPLimits/maxStartLineBytes``.
  public static let statusLineTooLong = HTTPParseError.bad("status line too long")

  /// 431: more fields in a head than ``HTTPLimits/maxHeaderCount``.
  public static let tooManyFields = HTTPParseError(status: 431, message: "too many header fields")

  /// 400: a `101 Switching Protocols` answer to a request that asked no upgrade (RFC 9110
  /// 15.2.2: a server must not send one unasked). libcurl took it for the final answer (`HTTP
  /// 101`) where the decoder skipped it as interim: both refuse it so.
  public static let unaskedSwitch = HTTPParseError.bad(
    "101 Switching Protocols to a request that asked no upgrade")

  /// 505: a version other than HTTP/1.0 and HTTP/1.1 (a request's major version, or an answer's
  /// `HTTP/1.x` past 1.1, `HTTP/2.0`, `HTTP/3`: see ``HTTPDecoder/minorVersion(ofStatusLine:)``).
  public static let unsupportedVersion = HTTPParseError(
    status: 505, message: "only HTTP/1.0 and HTTP/1.1 are supported")

  /// 400: an answer whose first bytes are not `HTTP/` (an SSH banner), in libcurl's words for it.
  public static let notHTTP = HTTPParseError.bad("Received HTTP/0.9 when not allowed")

  /// 400: a status line's code that is not three digits from 100 (`099`, `1000`, `2x0`).
  public static let badStatusLine = HTTPParseError.bad("bad status line")

  /// 400: a version that is not `HTTP/` DIGIT `.` DIGIT in `kind` ("status line", "request line").
  public static func malformedVersion(in kind: String) -> HTTPParseError {
    .bad("malformed HTTP version in \(kind)")
  }

  /// 400: a field line of a head or trailer (`section`) without a colon.
  static func withoutColon(_ section: HTTPDecoder.FieldSection) -> HTTPParseError {
    .bad("\(section) field without ':'")
  }

  /// 400: a head's field line without a colon (`HTTP/1.1 200 OK` among the fields).
  public static let headerFieldWithoutColon = withoutColon(.header)

  public var description: String { message }
}
