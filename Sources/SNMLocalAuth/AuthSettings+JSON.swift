import SNMWire

extension AuthSettings {
  /// The external providers GoTrue's `/settings` lists, in its order; only e-mail, phone and
  /// anonymous sign-ins exist here.
  static let externalProviders = [
    "anonymous_users", "apple", "azure", "bitbucket", "discord", "facebook", "snapchat", "figma",
    "fly", "github", "gitlab", "google", "keycloak", "kakao", "linkedin", "linkedin_oidc", "notion",
    "spotify", "slack", "slack_oidc", "workos", "twitch", "twitter", "email", "phone", "zoom",
  ]

  /// `GET /settings`: GoTrue's `Settings` object for these settings.
  var json: JSONValue {
    let external = Self.externalProviders.map { name -> JSONObject.Member in
      switch name {
      case "anonymous_users": .init(name, .bool(anonymousEnabled))
      case "email": .init(name, .bool(true))
      case "phone": .init(name, .bool(phoneEnabled))
      case "apple": .init(name, .bool(appleEnabled))
      case "github": .init(name, .bool(githubEnabled))
      default: .init(name, .bool(false))
      }
    }
    return .object([
      .init("external", .object(external)),
      .init("disable_signup", .bool(!signupEnabled)),
      .init("mailer_autoconfirm", .bool(!confirmEmail)),
      .init("phone_autoconfirm", .bool(!confirmPhone)),
      .init("sms_provider", .string("")),
      .init("saml_enabled", .bool(false)), .init("saml_private_key_next_configured", .bool(false)),
      .init("passkeys_enabled", .bool(false)),
    ])
  }
}
