/// What a private channel's policies on `realtime.messages` allow a role: to read (join,
/// receive) and to write (send, track).
struct RealtimeAccess: Sendable, Equatable {
  var read: Bool
  var write: Bool
}
