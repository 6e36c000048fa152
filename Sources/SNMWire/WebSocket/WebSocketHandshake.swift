import Foundation

/// The opening handshake of RFC 6455 §4, both ends: the client's request fields and its check of
/// the 101 answer, the server's check of the request and the fields of its answer.
///
/// ```swift
/// // server
/// let key = try WebSocketHandshake.checkRequest(head)           // 400 / 426 when not an upgrade
/// let fields = WebSocketHandshake.acceptFields(key: key)        // Upgrade, Connection, Sec-WebSocket-Accept
/// // client
/// let key = WebSocketHandshake.makeKey()
/// try WebSocketHandshake.checkAnswer(responseHead, key: key)
/// ```
public enum WebSocketHandshake {
  /// The GUID every accept key is derived with (§1.3).
  static let guid = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

  /// `Sec-WebSocket-Accept` for a `Sec-WebSocket-Key`: base64 of SHA-1 of the key and the GUID.
  public static func acceptKey(for key: String) -> String {
    Data(SHA1.digest(Array((key + guid).utf8))).base64EncodedString()
  }

  /// A fresh `Sec-WebSocket-Key`: 16 random bytes in base64.
  public static func makeKey() -> String {
    var generator = SystemRandomNumberGenerator()
    let bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
    return Data(bytes).base64EncodedString()
  }

  /// The fields a client adds to its GET to open a WebSocket with `key`.
  public static func requestFields(key: String) -> HTTPHeaders {
    [
      "Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Key": key,
      "Sec-WebSocket-Version": "13",
    ]
  }

  /// Checks a request is an opening handshake this server speaks; returns its key.
  ///
  /// - Throws: 400 when it is no upgrade to WebSocket or its key is not 16 bytes in base64, 426
  ///   (answer with `Sec-WebSocket-Version: 13`) for another version.
  public static func checkRequest(_ head: HTTPRequestHead) throws(WebSocketHandshakeError) -> String
  {
    guard head.method == "GET" else {
      throw WebSocketHandshakeError(
        status: 400, message: "a websocket opens with GET, not \(head.method)")
    }
    guard head.minorVersion >= 1 else {
      throw WebSocketHandshakeError(status: 400, message: "a websocket needs HTTP/1.1")
    }
    guard tokens(head.headers, "Upgrade").contains("websocket") else {
      throw WebSocketHandshakeError(status: 400, message: "missing Upgrade: websocket")
    }
    guard tokens(head.headers, "Connection").contains("upgrade") else {
      throw WebSocketHandshakeError(status: 400, message: "missing Connection: Upgrade")
    }
    guard head.headers["Sec-WebSocket-Version"]?.trimmingSpaces == "13" else {
      throw WebSocketHandshakeError(status: 426, message: "websocket version 13 is the one spoken")
    }
    let values = head.headers.values(for: "Sec-WebSocket-Key")
    guard values.count == 1, let key = values.first?.trimmingSpaces,
      let decoded = Data(base64Encoded: String(key)), decoded.count == 16
    else {
      throw WebSocketHandshakeError(
        status: 400, message: "Sec-WebSocket-Key must be one 16-byte value in base64")
    }
    return String(key)
  }

  /// The fields of a server's `101 Switching Protocols` for `key`.
  public static func acceptFields(key: String) -> HTTPHeaders {
    ["Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Accept": acceptKey(for: key)]
  }

  /// Checks a server's answer accepts the handshake a client opened with `key`.
  ///
  /// - Throws: with the answer's status when it is not 101, lacks the upgrade fields, or its
  ///   accept key does not match.
  public static func checkAnswer(
    _ head: HTTPResponseHead, key: String
  ) throws(WebSocketHandshakeError) {
    guard head.status == 101 else {
      throw WebSocketHandshakeError(
        status: head.status,
        message: "the server answered \(head.status), not 101 switching protocols")
    }
    guard tokens(head.headers, "Upgrade").contains("websocket"),
      tokens(head.headers, "Connection").contains("upgrade")
    else {
      throw WebSocketHandshakeError(
        status: 101, message: "the server's 101 is no websocket upgrade")
    }
    guard head.headers["Sec-WebSocket-Accept"]?.trimmingSpaces == acceptKey(for: key) else {
      throw WebSocketHandshakeError(
        status: 101, message: "the server's Sec-WebSocket-Accept does not match the key")
    }
  }

  /// The comma-separated tokens of every `name` field, lowercased.
  private static func tokens(_ headers: HTTPHeaders, _ name: String) -> [String] {
    headers.values(for: name).flatMap {
      $0.split(separator: ",").map { String($0.trimmingSpaces).lowercased() }
    }
  }
}
