import Foundation

/// When a session's access token must be refreshed before use.
///
/// ```swift
/// let policy = SessionRefreshPolicy()
/// policy.needsRefresh(session, now: now)   // true within 30 s of expiry
/// ```
/// The rule is supabase-swift's (`expiresAt - now < 30 s`) with one addition for tokens that live
/// less than the margin (`snm local start --jwt-expiry 5`): a token obtained within the last
/// `freshWindow` seconds is used until `minimumTimeLeft` remains, so a refresh made a moment ago
/// (by this process or another one sharing the session file) is not repeated.
public struct SessionRefreshPolicy: Sendable, Hashable {
  /// Refresh when fewer seconds than this are left (supabase-swift's `defaultExpiryMargin`).
  public var margin: TimeInterval
  /// A token obtained this recently counts as fresh inside the margin.
  public var freshWindow: TimeInterval
  /// Even a fresh token is refreshed when fewer seconds than this are left.
  public var minimumTimeLeft: TimeInterval

  public init(
    margin: TimeInterval = 30, freshWindow: TimeInterval = 10, minimumTimeLeft: TimeInterval = 1
  ) {
    self.margin = margin
    self.freshWindow = freshWindow
    self.minimumTimeLeft = minimumTimeLeft
  }

  /// `true` when `session` should be refreshed before its token is sent.
  public func needsRefresh(_ session: SupabaseSession, now: Date) -> Bool {
    let left = session.timeLeft(now: now)
    if left >= margin { return false }
    if left < minimumTimeLeft { return true }
    let age = now.timeIntervalSince(session.obtainedAt)
    return !(age >= 0 && age < freshWindow)
  }
}
