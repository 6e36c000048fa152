/// The session commands of spec §3.
public enum SessionStatement: Sendable, Equatable {
  /// `login`: an anonymous sign-in.
  case loginAnonymously
  /// `login email '...' [password '...' | password $env.X]`; without a password the shell asks.
  case login(email: ValueNode, password: ValueNode?)
  /// `signup email '...' [password ...]`
  case signup(email: ValueNode, password: ValueNode?)
  /// `session check`
  case check
  /// `session show`
  case show
  /// `logout`
  case logout
}
