import Foundation

@testable import SNMSupabase

/// libFuzzer entry for the session decoder: the input as a GoTrue token answer
/// (`SupabaseSession(response:now:)`), as snm's stored session file, and as an access token whose
/// claims are read.
///
/// Fails (traps) when a decoded session has a ``SupabaseSession/problem`` (a date no date can hold
/// once crashed `session show`), when its stored form does not decode back to it, or when showing
/// it (description, time left, claims) crashes. Built and run by `scripts/fuzz run session`.
@_cdecl("LLVMFuzzerTestOneInput")
public func sessionFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let body = Data(UnsafeBufferPointer(start: data, count: size))
  let now = Date(timeIntervalSince1970: 1_700_000_000)

  if let session = try? SupabaseSession(response: body, now: now) {
    SessionFuzz.check(session, now: now)
  }
  if let stored = try? JSONDecoder().decode(FileSessionStore.StoredSession.self, from: body),
    let session = stored.session
  {
    SessionFuzz.check(session, now: now)
  }
  if let session = try? JSONDecoder().decode(SupabaseSession.self, from: body) {
    SessionFuzz.check(session, now: now)
  }
  // The input as a token, and as a token's payload.
  let text = String(decoding: body, as: UTF8.self)
  SessionFuzz.show(AccessTokenClaims(jwt: text))
  let payload = body.base64EncodedString().replacingOccurrences(of: "+", with: "-")
    .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
  SessionFuzz.show(AccessTokenClaims(jwt: "e30." + payload + ".sig"))
  return 0
}

enum SessionFuzz {
  static func check(_ session: SupabaseSession, now: Date) {
    fuzzCheck(session.problem == nil, "a decoded session has a problem: \(session.problem ?? "")")
    _ = session.description
    let left = session.timeLeft(now: now)
    fuzzCheck(left.isFinite && abs(left) < 1e12, "time left out of range: \(left)")
    show(session.claims)
    guard let encoded = try? JSONEncoder().encode(session) else {
      fuzzCheck(false, "a decoded session does not encode")
      return
    }
    let decoded = try? JSONDecoder().decode(SupabaseSession.self, from: encoded)
    fuzzCheck(decoded != nil, "a session's stored form does not decode")
    fuzzCheck(decoded?.user == session.user, "the user does not round-trip")
    fuzzCheck(decoded?.accessToken == session.accessToken, "the token does not round-trip")
  }

  static func show(_ claims: AccessTokenClaims) {
    for date in [claims.expiresAt, claims.issuedAt].compactMap({ $0 }) {
      fuzzCheck(
        SupabaseSession.validSeconds.contains(date.timeIntervalSince1970),
        "a claim's date out of range")
    }
  }
}
