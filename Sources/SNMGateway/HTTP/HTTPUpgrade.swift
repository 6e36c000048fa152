import SNMWire

/// A handler's answer that switches the connection to another protocol (a WebSocket): the
/// server writes `101 Switching Protocols` with `fields`, stops serving HTTP on the connection
/// and gives its socket to `takeOver`, which owns it from then on (it closes it).
///
/// ```swift
/// var response = HTTPResponse(status: 101)
/// response.upgrade = HTTPUpgrade(fields: WebSocketHandshake.acceptFields(key: key)) { socket in
///   sockets.adopt(socket)
/// }
/// ```
public final class HTTPUpgrade: Sendable, Equatable {
  /// The fields of the 101 answer (`Upgrade`, `Connection`, `Sec-WebSocket-Accept`).
  public let fields: HTTPHeaders
  let takeOver: @Sendable (Int32) -> Void

  public init(fields: HTTPHeaders, takeOver: @escaping @Sendable (Int32) -> Void) {
    self.fields = fields
    self.takeOver = takeOver
  }

  /// The bytes of the 101 head: the status line, `fields`, `Date`; no body.
  var head: [UInt8] {
    var bytes: [UInt8] = []
    HTTPEncoder.appendStatusLine(of: HTTPResponseHead(status: 101), to: &bytes)
    for field in fields {
      HTTPEncoder.appendField(name: field.name, value: field.value, to: &bytes)
    }
    HTTPEncoder.appendField(name: "Date", value: DateHeader.shared.now(), to: &bytes)
    HTTPEncoder.appendEnd(to: &bytes)
    return bytes
  }

  public static func == (lhs: HTTPUpgrade, rhs: HTTPUpgrade) -> Bool { lhs === rhs }
}
