import SNMWire

/// Why a joined channel stopped, or will deliver nothing more: the server said so on the channel
/// (it answered), or the socket under it ended (the project went away).
///
/// ```swift
/// var end: RealtimeChannelEnd?
/// end = RealtimeChannelEnd(message, after: end) ?? end  // each message the server pushes
/// if end?.isClosedByServer == true { ... }  // refused: not a project out of reach
/// ```
public enum RealtimeChannelEnd: Sendable, Equatable, CustomStringConvertible {
  /// The server reported a postgres_changes error on the channel (`system`, status error) and
  /// left it open: the database's change stream ending.
  case serverError(String)
  /// The server closed the channel (`phx_close`), or sent the `system` error of its own that it
  /// always closes the channel after (a rate limit: "Too many messages per second", a refused
  /// token), with that error's reason, if one came.
  case closedByServer(reason: String?)
  /// The server's channel crashed (`phx_error`), with the earlier error's reason, if any.
  case crashed(reason: String?)
  /// The socket ended (nil: closed by this side).
  case socket(RealtimeError?)

  /// What `message`, pushed by the server on the channel, says of its end, after `earlier`
  /// (what an earlier message said): a `system` error, or the close or crash that follows one
  /// (keeping its reason); nil for anything else (an ok `system`, an event).
  public init?(_ message: PhoenixMessage, after earlier: RealtimeChannelEnd?) {
    switch message.event {
    case "system":
      guard message.payload["status"]?.stringValue != "ok" else { return nil }
      let text = message.payload["message"]?.stringValue ?? message.payload.serialized()
      // Realtime closes the channel after every error of its own (`extension` "system": a rate
      // limit, an expired or refused token): the close is decided when the error comes, so the
      // end is the same whether a reader wakes before or after the `phx_close` that follows.
      // A postgres_changes error leaves the channel open: the change stream ended.
      if message.payload["extension"]?.stringValue == "postgres_changes" {
        self = .serverError(text)
      } else {
        self = .closedByServer(reason: text)
      }
    case "phx_close": self = .closedByServer(reason: earlier?.reason)
    case "phx_error": self = .crashed(reason: earlier?.reason)
    default: return nil
    }
  }

  /// The server closed the channel on purpose: it answered, and refused to go on (a statement
  /// failure), where a socket that ended or a crash is the project out of reach.
  public var isClosedByServer: Bool {
    if case .closedByServer = self { true } else { false }
  }

  /// The reason a later close keeps.
  var reason: String? {
    switch self {
    case .serverError(let text): text
    case .closedByServer(let reason), .crashed(let reason): reason
    case .socket: description
    }
  }

  public var description: String {
    switch self {
    case .serverError(let text): text
    case .closedByServer(let reason):
      reason.map { "the server closed the channel: \($0)" } ?? "the server closed the channel"
    case .crashed(let reason):
      reason.map { "the server's channel crashed: \($0)" } ?? "the server's channel crashed"
    case .socket(let error): error.map { "\($0)" } ?? "the socket was closed"
    }
  }
}
