/// What a private channel's policies on `realtime.messages` let a user do, for
/// `realtime check channel <topic> private`.
public struct RealtimeChannelAccess: Sendable, Equatable {
  /// The SELECT policies pass: the user may join and receive.
  public var read: Bool
  /// The INSERT policies pass: the user may broadcast and track presence.
  public var write: Bool

  public init(read: Bool, write: Bool) {
    self.read = read
    self.write = write
  }
}
