import Testing

@testable import SNMWire

@Suite struct WebSocketHandshakeTests {
  @Test func sha1KnownAnswers() {
    func hex(_ text: String) -> String {
      SHA1.digest(Array(text.utf8)).map {
        String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16)
      }.joined()
    }
    #expect(hex("") == "da39a3ee5e6b4b0d3255bfef95601890afd80709")
    #expect(hex("abc") == "a9993e364706816aba3e25717850c26c9cd0d89d")
    #expect(
      hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
        == "84983e441c3bd26ebaae4aa1f95129e5e54670f1")
    #expect(
      hex(String(repeating: "a", count: 1_000_000)) == "34aa973cd4c4daa4f61eeb2bdbad27316534016f")
  }

  @Test func acceptKeyOfRFC6455() {
    #expect(
      WebSocketHandshake.acceptKey(for: "dGhlIHNhbXBsZSBub25jZQ==")
        == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
  }

  private func request(_ fields: HTTPHeaders, method: String = "GET") -> HTTPRequestHead {
    HTTPRequestHead(method: method, target: "/realtime/v1/websocket", headers: fields)
  }

  @Test func serverChecksTheRequest() throws {
    let key = WebSocketHandshake.makeKey()
    var fields = WebSocketHandshake.requestFields(key: key)
    #expect(try WebSocketHandshake.checkRequest(request(fields)) == key)
    // Token lists and any case.
    let browser: HTTPHeaders = [
      "Upgrade": "WebSocket", "Connection": "keep-alive, Upgrade", "Sec-WebSocket-Key": key,
      "Sec-WebSocket-Version": "13",
    ]
    #expect(try WebSocketHandshake.checkRequest(request(browser)) == key)
    #expect(
      throws: WebSocketHandshakeError(status: 400, message: "a websocket opens with GET, not POST")
    ) {
      try WebSocketHandshake.checkRequest(request(fields, method: "POST"))
    }
    fields = ["Connection": "Upgrade", "Sec-WebSocket-Key": key, "Sec-WebSocket-Version": "13"]
    #expect(throws: WebSocketHandshakeError(status: 400, message: "missing Upgrade: websocket")) {
      try WebSocketHandshake.checkRequest(request(fields))
    }
    fields = [
      "Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Key": key,
      "Sec-WebSocket-Version": "8",
    ]
    #expect(
      throws: WebSocketHandshakeError(
        status: 426, message: "websocket version 13 is the one spoken")
    ) {
      try WebSocketHandshake.checkRequest(request(fields))
    }
    for bad in ["", "short", "AAAAAAAAAAAAAAAAAAAAAAAAAAAA"] {
      fields = [
        "Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Key": bad,
        "Sec-WebSocket-Version": "13",
      ]
      #expect(
        throws: WebSocketHandshakeError(
          status: 400, message: "Sec-WebSocket-Key must be one 16-byte value in base64")
      ) {
        try WebSocketHandshake.checkRequest(request(fields))
      }
    }
  }

  @Test func clientChecksTheAnswer() throws {
    let key = "dGhlIHNhbXBsZSBub25jZQ=="
    try WebSocketHandshake.checkAnswer(
      HTTPResponseHead(status: 101, headers: WebSocketHandshake.acceptFields(key: key)), key: key)
    #expect(
      throws: WebSocketHandshakeError(
        status: 401, message: "the server answered 401, not 101 switching protocols")
    ) {
      try WebSocketHandshake.checkAnswer(HTTPResponseHead(status: 401), key: key)
    }
    let wrong: HTTPHeaders = [
      "Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Accept": "nope",
    ]
    #expect(
      throws: WebSocketHandshakeError(
        status: 101, message: "the server's Sec-WebSocket-Accept does not match the key")
    ) {
      try WebSocketHandshake.checkAnswer(HTTPResponseHead(status: 101, headers: wrong), key: key)
    }
  }
}
