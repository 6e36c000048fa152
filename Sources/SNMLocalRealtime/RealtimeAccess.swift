/// What a private channel's policies on `realtime.messages` allow a role: to read (join,
/// receive) and to write (send, track).
package struct RealtimeAccess: Sendable, Equatable {
  package var read: Bool
  package var write: Bool
}
