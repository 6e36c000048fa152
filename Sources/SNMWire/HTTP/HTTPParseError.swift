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

  public var description: String { message }
}
