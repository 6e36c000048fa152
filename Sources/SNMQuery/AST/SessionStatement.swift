import SNMSupabase

/// The session commands of spec §3.
public enum SessionStatement: Sendable, Equatable {
  /// `login`: an anonymous sign-in.
  case loginAnonymously
  /// `login email '...' [password '...' | password $env.X]`; without a password the shell asks.
  case login(email: ValueNode, password: ValueNode?)
  /// `signup email '...' [password ...] [data {...}]` (`data`: the user's metadata)
  case signup(email: ValueNode, password: ValueNode?, data: ValueNode? = nil)
  /// `session check`
  case check
  /// `session show`
  case show
  /// `session refresh`: a new access token now, whatever time is left.
  case refresh
  /// `session token`: prints the access token (refreshed when near its end) for another client.
  case token
  /// `logout [local|others|global]` (nil: local, this session only).
  case logout(SignOutScope? = nil)
}
