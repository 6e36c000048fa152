/// The sizes an HTTP/1.1 message may have, enforced by ``HTTPDecoder`` before anything is set
/// aside for it: what a server accepts from a client, and what a client accepts from a server.
///
/// ```swift
/// var limits = HTTPLimits.requests
/// limits.maxBodyBytes = 1 << 20      // 413 past 1 MiB
/// HTTPLimits.responses.maxBodyBytes  // 1 GiB: the most a client takes from a server
/// ```
public struct HTTPLimits: Sendable, Hashable {
  /// Longest start line (a request line, or a status line); longer is 414 for a request.
  public var maxStartLineBytes: Int
  /// Largest header section after the start line (all fields together); larger is 431.
  public var maxHeaderBytes: Int
  /// Most header fields; more is 431.
  public var maxHeaderCount: Int
  /// Largest body after decoding, however it is framed (announced or sent); larger is 413.
  public var maxBodyBytes: Int

  /// What the local project's gateway accepts from a client.
  public static let requests = HTTPLimits(
    maxStartLineBytes: 16 * 1024, maxHeaderBytes: 32 * 1024, maxHeaderCount: 100,
    maxBodyBytes: 10 * 1024 * 1024)

  /// What snm accepts from a server: a head of 64 KiB, a body of 1 GiB.
  public static let responses = HTTPLimits(
    maxStartLineBytes: 8 * 1024, maxHeaderBytes: 64 * 1024, maxHeaderCount: 1000,
    maxBodyBytes: 1 << 30)

  /// The longest line of a chunk size (with its extensions).
  static let maxChunkLineBytes = 1024

  /// The longest trailer field line of a chunked body, without its line end: what libcurl (7.88)
  /// holds, whose buffer for one is 4,096 bytes with the CR LF it puts back and a NUL, and which
  /// refuses a longer one over https://; snm's decoder holds every scheme to it.
  static let maxTrailerLineBytes = 4_093
}
