import SNMNetwork

/// Why a Realtime call failed, in words a person acts on.
public enum RealtimeError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The socket could not open or ended.
  case socket(WebSocketClientError)
  /// The server answered a push (a join, a broadcast, presence) with `status: error`.
  case refused(topic: String, reason: String)
  /// No reply to a push in time.
  case noReply(topic: String, event: String, seconds: Int)
  /// The server broke the Phoenix protocol (a frame that does not decode).
  case protocolError(String)

  public var description: String {
    switch self {
    case .socket(let error): "realtime: \(error)"
    case .refused(let topic, let reason): "realtime refused \(topic): \(reason)"
    case .noReply(let topic, let event, let seconds):
      "realtime did not answer \(event) on \(topic) within \(seconds)s"
    case .protocolError(let why): "realtime sent a message snm cannot read: \(why)"
    }
  }
}
