import SNMGateway
import SNMWire

extension AuthGateway {
  /// The OAuth providers GoTrue knows by name (`/authorize?provider=`); none is enabled in the
  /// local project.
  static let oauthProviders: Set<String> = [
    "apple", "azure", "bitbucket", "discord", "facebook", "figma", "fly", "github", "gitlab",
    "google", "kakao", "keycloak", "linkedin", "linkedin_oidc", "notion", "snapchat", "spotify",
    "slack", "slack_oidc", "twitch", "twitter", "x", "vercel_marketplace", "workos", "zoom",
  ]

  /// `GET /authorize?provider=NAME`: GoTrue looks the provider up first and answers 400
  /// validation_failed "Unsupported provider: ..." for an unknown one, a disabled one and a
  /// custom one when custom providers are off, which they are here.
  func authorize(_ request: HTTPRequest) throws -> HTTPResponse {
    let name = (request.queryValue("provider") ?? "").lowercased()
    let reason: String
    if name.hasPrefix("custom:") {
      reason = "custom OAuth providers are disabled"
    } else if Self.oauthProviders.contains(name) {
      reason = "provider is not enabled"
    } else {
      reason = "Provider \(name) could not be found"
    }
    throw AuthFailure(
      status: 400, code: "validation_failed", message: "Unsupported provider: \(reason)")
  }
}
