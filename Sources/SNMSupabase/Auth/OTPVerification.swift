import Foundation
import SNMNetwork
import SNMWire

/// What `POST /verify` gave: a session, or (an e-mail change the project confirms on both
/// addresses) only the first address's confirmation, the other address's code still to come.
public enum OTPVerification: Sendable {
  case session(SupabaseSession)
  /// GoTrue's 200 `{"msg": ..., "code": "200"}` without tokens: one address confirmed.
  case halfConfirmed

  /// The answer in `body`: a session, or GoTrue's half-way answer (a `msg` and no token).
  ///
  /// ```swift
  /// let outcome = try OTPVerification(response: body, now: Date())
  /// ```
  /// - Throws: what ``SupabaseSession/init(response:now:)`` throws for anything else.
  public init(response body: Data, now: Date) throws(AuthResponseError) {
    if let value = try? JSONValue(parsing: body), value["access_token"] == nil,
      value["msg"]?.stringValue != nil, value["user"] == nil
    {
      self = .halfConfirmed
      return
    }
    self = .session(try SupabaseSession(response: body, now: now))
  }
}
