/// Whose rules a token's registered claims are typed by: the services behind a Supabase project
/// disagree on a claim of the wrong type, and each local service answers as its hosted twin.
///
/// ```swift
/// try signer.verify(token, now: now, rules: .jose)   // Storage: `"aud": 42` is not looked at
/// ```
public enum JWTClaimRules: Sendable, Equatable {
  /// PostgREST 13's (`Auth.hs` `verifyClaims`), claim by claim: `exp`, `nbf`, `iat` each a number
  /// (null is no number) then its time, then `aud` a string, an array of strings or null, whatever
  /// the configured audience. A time that is not a whole number within 64 bits counts as 0, as
  /// PostgREST's `toBoundedInteger` makes it: a fractional `exp` has expired.
  case postgrest
  /// GoTrue's (golang-jwt decoding its typed claims): as `.postgrest` on types, but a null claim
  /// is absent and a number is taken as it is.
  case gotrue
  /// Storage's (the `jose` library, no audience option): `iat`, `nbf`, `exp` are typed before any
  /// time is compared, null refused; `aud` is not looked at unless an audience is asked for.
  case jose
}
