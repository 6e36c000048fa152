/// Whose rules a token's registered claims are typed by: the services behind a Supabase project
/// disagree on a claim of the wrong type, and each local service answers as its hosted twin.
///
/// ```swift
/// try signer.verify(token, now: now, rules: .jose)   // Storage: `"nbf": null` is refused
/// ```
public enum JWTClaimRules: Sendable, Equatable {
  /// PostgREST's (and GoTrue's golang-jwt agrees on which tokens pass): `exp`, `nbf`, `iat` must
  /// be numbers and `aud` a string or an array of strings, whatever the configured audience; a
  /// claim that is null counts as absent. Checked claim by claim: `exp`, `nbf`, `iat`, `aud`.
  case postgrest
  /// Storage's (the `jose` library, no audience option): `iat`, `nbf`, `exp` must be numbers when
  /// present, null included; `aud` is not looked at unless an audience is asked for.
  case jose
}
