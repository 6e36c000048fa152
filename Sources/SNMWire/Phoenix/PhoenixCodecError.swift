/// Why a WebSocket message is not a Phoenix message this codec reads, or why one cannot be
/// written (a field past 255 bytes in a binary frame, binary on a v1 socket): a lowercase message.
public struct PhoenixCodecError: Error, Sendable, Hashable, CustomStringConvertible {
  public var message: String

  public init(_ message: String) { self.message = message }

  public var description: String { message }
}
