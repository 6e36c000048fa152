/// What GoTrue's id_token grant takes (supabase-swift's `OpenIDConnectCredentials`): the
/// provider's name, its signed id_token and the raw nonce the app asked the provider to sign
/// (Apple's tokens carry its SHA-256). The token and nonce are secrets: never printed.
///
/// ```swift
/// let session = try await auth.signInWithIdToken(
///   credentials: OpenIDConnectCredentials(provider: "apple", idToken: token, nonce: nonce))
/// ```
public struct OpenIDConnectCredentials: Sendable, Hashable {
  /// `apple`, `google`, ... (GoTrue's provider names).
  public var provider: String
  public var idToken: String
  public var nonce: String?

  public init(provider: String, idToken: String, nonce: String? = nil) {
    self.provider = provider
    self.idToken = idToken
    self.nonce = nonce
  }
}
