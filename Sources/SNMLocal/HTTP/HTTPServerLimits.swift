import SNMWire

/// Sizes and times the HTTP server enforces on every connection.
///
/// ```swift
/// var limits = HTTPServerLimits()
/// limits.framing.maxBodyBytes = 1 << 20      // 413 past 1 MiB
/// limits.requestTimeout = 5                  // 408 when a request takes longer to arrive
/// ```
public struct HTTPServerLimits: Sendable, Equatable {
  /// Request line, header and body sizes (SNMWire's, the ones the decoder enforces).
  public var framing = HTTPLimits.requests
  /// Seconds a request may take to arrive once its first byte came; then 408 and close.
  public var requestTimeout: Double = 30
  /// Seconds an idle keep-alive connection stays open between requests.
  public var idleTimeout: Double = 60
  /// Seconds a blocked write may wait for the client to read.
  public var writeTimeout: Double = 30
  /// Connections served at once; one more gets 503 and is closed.
  public var maxConnections = 1024

  public init() {}
}
