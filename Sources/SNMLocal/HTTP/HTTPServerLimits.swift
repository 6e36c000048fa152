/// Sizes and times the HTTP server enforces on every connection.
///
/// ```swift
/// var limits = HTTPServerLimits()
/// limits.maxBodyBytes = 1 << 20      // 413 past 1 MiB
/// limits.requestTimeout = 5          // 408 when a request takes longer to arrive
/// ```
public struct HTTPServerLimits: Sendable, Equatable {
  /// Longest request line (method, target, version); longer gets 414.
  public var maxRequestLineBytes = 16 * 1024
  /// Largest header section (all fields together); larger gets 431.
  public var maxHeaderBytes = 32 * 1024
  /// Most header fields; more gets 431.
  public var maxHeaderCount = 100
  /// Largest body after decoding; larger gets 413.
  public var maxBodyBytes = 10 * 1024 * 1024
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
