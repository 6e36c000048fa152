/// The byte stream a ``WebSocketConnection`` runs over: a TCP connection (`ws://`) or TLS on one
/// (`wss://`). Blocking calls; `cancel()` may come from any thread and wakes a blocked read.
protocol WebSocketByteStream: Sendable {
  func send(_ bytes: [UInt8], deadline: ContinuousClock.Instant) throws(PlainHTTPFailure)
  /// The next bytes; empty at the end of the stream.
  func receive(deadline: ContinuousClock.Instant) throws(PlainHTTPFailure) -> [UInt8]
  func cancel()
  func close()
}

extension PlainHTTPConnection: WebSocketByteStream {}
