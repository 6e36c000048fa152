import Foundation
import SNMNetwork
import SNMWire

/// Signing in through another identity provider: an id_token the app got from the provider
/// (Sign in with Apple), or the provider's redirect flow in a browser finished with PKCE.
///
/// ```swift
/// let session = try await auth.signInWithIdToken(credentials: .init(provider: "apple", idToken: t))
/// let url = auth.oauthSignInURL(provider: "github", redirectTo: loopback, codeChallenge: challenge)
/// let session = try await auth.exchangeCodeForSession(authCode: code, codeVerifier: verifier)
/// ```
/// Throws as the other sign-in calls do (``SupabaseAuthError`` for a refusal).
extension SupabaseAuthManager {
  /// `POST /auth/v1/token?grant_type=id_token`.
  public func signInWithIdToken(credentials: OpenIDConnectCredentials) async throws
    -> SupabaseSession
  {
    try await session(from: .signInWithIDToken(credentials))
  }

  /// The URL a browser opens to sign in with `provider`: GoTrue's `/authorize` with the flow's
  /// S256 challenge; the provider's answer comes back to `redirectTo` as `?code=...`.
  public func oauthSignInURL(provider: String, redirectTo: String, codeChallenge: String)
    -> String
  {
    AuthEndpoint.authorize(provider: provider, redirectTo: redirectTo, codeChallenge: codeChallenge)
      .endpoint(base: config.url).url
  }

  /// `POST /auth/v1/token?grant_type=pkce`: the redirect's code and the flow's verifier.
  public func exchangeCodeForSession(authCode: String, codeVerifier: String) async throws
    -> SupabaseSession
  {
    try await session(from: .exchangeCode(authCode: authCode, codeVerifier: codeVerifier))
  }
}
