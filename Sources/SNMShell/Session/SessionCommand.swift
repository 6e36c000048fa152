import SNMSupabase
import SNMWire

/// A session statement (spec §3) with its values resolved: what `StatementExecutor.runSession(_:)` runs.
///
/// ```swift
/// await executor.runSession(.login(email: "kim@example.com", password: nil))  // asks at a terminal
/// ```
public enum SessionCommand: Sendable, Equatable {
  /// `login`: a new anonymous user.
  case loginAnonymously
  /// `login email '...' [password ...]`; nil asks at the terminal without echo.
  case login(email: String, password: String?)
  /// `signup email '...' [password ...] [data {...}]`
  case signup(email: String, password: String?, data: JSONValue? = nil)
  /// `session check`: refresh when within the margin; user, role, time left.
  case check
  /// `session show`: user id, role, anonymous or not, expiry; never the tokens.
  case show
  /// `session refresh`: a new access token now.
  case refresh
  /// `session token`: the access token on standard output, for curl or another client.
  case token
  /// `logout [local|others|global]`
  case logout(SignOutScope = .local)
}
