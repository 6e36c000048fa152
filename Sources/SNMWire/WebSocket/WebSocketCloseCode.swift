/// The status code of a close frame (RFC 6455 §7.4): an open set, as a peer may send any code in
/// 3000-4999.
///
/// ```swift
/// WebSocketCloseCode.messageTooBig.rawValue   // 1009
/// WebSocketCloseCode(rawValue: 1005).isSendable   // false: it only reports "no code"
/// ```
public struct WebSocketCloseCode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
  public var rawValue: UInt16

  public init(rawValue: UInt16) { self.rawValue = rawValue }

  /// 1000: done.
  public static let normal = WebSocketCloseCode(rawValue: 1000)
  /// 1001: the endpoint is going away (server shutdown, page left).
  public static let goingAway = WebSocketCloseCode(rawValue: 1001)
  /// 1002: the peer broke the protocol.
  public static let protocolError = WebSocketCloseCode(rawValue: 1002)
  /// 1003: a kind of data the endpoint does not take.
  public static let unsupportedData = WebSocketCloseCode(rawValue: 1003)
  /// 1005: a close frame without a code (reported, never sent).
  public static let noStatus = WebSocketCloseCode(rawValue: 1005)
  /// 1006: the connection ended without a close frame (reported, never sent).
  public static let abnormal = WebSocketCloseCode(rawValue: 1006)
  /// 1007: a text message that is not UTF-8, or data its kind does not allow.
  public static let invalidPayload = WebSocketCloseCode(rawValue: 1007)
  /// 1008: a message against the endpoint's policy.
  public static let policyViolation = WebSocketCloseCode(rawValue: 1008)
  /// 1009: a frame or message past the endpoint's limit.
  public static let messageTooBig = WebSocketCloseCode(rawValue: 1009)
  /// 1011: the server failed.
  public static let internalError = WebSocketCloseCode(rawValue: 1011)

  /// Whether a close frame may carry this code (§7.4.1-2): 1000-1003, 1007-1014 and 3000-4999.
  public var isSendable: Bool {
    switch rawValue {
    case 1000...1003, 1007...1014, 3000...4999: true
    default: false
    }
  }

  public var description: String { String(rawValue) }
}
