/// Why an HTTP request or answer is not a WebSocket opening handshake (RFC 6455 §4): the status
/// a server answers with (400, or 426 for a version it does not speak) or the status a client got,
/// and a lowercase message saying why. The same fact as any other HTTP refusal, so the same type.
public typealias WebSocketHandshakeError = HTTPParseError
