/// A change of who the prompt names as signed in, which a statement returns for the session to
/// keep (a family never writes the session's state itself).
///
/// ```swift
/// return Outcome(.succeeded(nil), signedIn: .as(SessionStatements.promptName(session.user)))
/// ```
enum SignedInChange: Sendable, Equatable {
  /// Signed in as this name (`kim`, `anonymous`).
  case `as`(String)
  /// Signed out: requests run as the key's role.
  case out
}
