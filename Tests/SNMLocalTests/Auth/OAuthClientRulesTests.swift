import Testing

@testable import SNMLocalAuth

/// GoTrue's rules for an OAuth client's fields: redirect URIs read as Go's `net/url` reads them,
/// the body decoded as Go decodes it, the create's defaults and checks, the update's checks.
@Suite struct OAuthClientRulesTests {
  struct RedirectCase: Sendable, CustomTestStringConvertible {
    let uri: String
    let problem: String?
    var testDescription: String { uri.isEmpty ? "(empty)" : uri }
  }

  static let redirects: [RedirectCase] = [
    .init(uri: "https://example.com/callback", problem: nil),
    .init(uri: "https://example.com/cb?x=1#", problem: nil),
    .init(uri: "http://localhost:3000/cb", problem: nil),
    .init(uri: "http://127.0.0.1/cb", problem: nil),
    .init(uri: "http://[::1]:8080/cb", problem: nil),
    .init(uri: "myapp://callback", problem: nil),
    .init(uri: "https://ann:pa%20ss@example.com/cb", problem: nil),
    .init(uri: "", problem: "redirect URI cannot be empty"),
    .init(uri: "com.example.app:/oauth", problem: "must have scheme and host"),
    .init(uri: "/relative/path", problem: "must have scheme and host"),
    .init(uri: "mailto:ann@example.com", problem: "must have scheme and host"),
    .init(uri: "http://example.com/cb", problem: "HTTP scheme only allowed for localhost"),
    .init(uri: "HTTP://example.com/cb", problem: "HTTP scheme only allowed for localhost"),
    .init(uri: "http://localhost.example.com/", problem: "HTTP scheme only allowed for localhost"),
    .init(
      uri: "JavaScript://x/alert(1)",
      problem: "scheme 'javascript' is not allowed for security reasons"),
    .init(uri: "data://x/y", problem: "scheme 'data' is not allowed for security reasons"),
    .init(uri: "https://example.com/cb#done", problem: "fragment not allowed in redirect URI"),
    .init(uri: "://example.com", problem: "invalid URL format"),
    .init(uri: "https://exa mple.com/", problem: "invalid URL format"),
    .init(uri: "https://example.com:https/", problem: "invalid URL format"),
    .init(uri: "https://[::1/cb", problem: "invalid URL format"),
    .init(uri: "https://example.com/%zz", problem: "invalid URL format"),
    .init(uri: "https://example.com/\u{1}", problem: "invalid URL format"),
    .init(uri: "https://a b@example.com/", problem: "invalid URL format"),
  ]

  @Test(arguments: redirects)
  func redirectURIsAreCheckedAsGoTrueChecksThem(_ test: RedirectCase) {
    #expect(OAuthClientURL.redirectProblem(test.uri) == test.problem)
  }

  @Test func clientAndLogoURIsAreRequestURIs() {
    for good in ["https://example.com", "https://example.com/#top", "/about", "mailto:a@b.c"] {
      #expect(OAuthClientURL(parsing: good, asRequestURI: true) != nil, "\(good)")
    }
    for bad in ["example.com", "https://exa mple.com", "://x", "a b"] {
      #expect(OAuthClientURL(parsing: bad, asRequestURI: true) == nil, "\(bad)")
    }
  }

  func fields(_ json: String) throws -> OAuthClientFields {
    try OAuthClientFields(body: Array(json.utf8))
  }

  @Test func theBodyIsDecodedAsGoDecodesIt() throws {
    let read = try fields(
      #"{"REDIRECT_URIS": ["https://a.example/cb", null], "client_name": null, "x": 1,"#
        + #" "client_uri": "https://a.example"}"#)
    #expect(read.redirectURIs == ["https://a.example/cb", ""])
    #expect(read.clientName == nil && read.clientURI == "https://a.example")
    #expect(try fields("null") == OAuthClientFields())
    for bad in [
      "", "[]", "\"x\"", "{", #"{"redirect_uris": "https://a.example"}"#,
      #"{"client_name": 3}"#, #"{"grant_types": [1]}"#,
    ] {
      #expect(throws: OAuthClientFields.invalidJSON, "\(bad)") { try fields(bad) }
    }
  }

  @Test func aCreateFillsInGoTruesDefaults() throws {
    let plain = try fields(#"{"redirect_uris": ["https://a.example/cb"], "client_name": ""}"#)
      .newClient(registrationType: "manual")
    #expect(
      plain.clientType == "confidential" && plain.tokenEndpointAuthMethod == "client_secret_basic")
    #expect(plain.grantTypes == ["authorization_code", "refresh_token"])
    #expect(plain.clientName == nil && plain.registrationType == "manual")
    let byMethod = try fields(#"{"token_endpoint_auth_method": "none"}"#)
      .newClient(registrationType: "manual")
    #expect(byMethod.clientType == "public" && byMethod.tokenEndpointAuthMethod == "none")
    let byType = try fields(#"{"client_type": "public", "grant_types": ["authorization_code"]}"#)
      .newClient(registrationType: "manual")
    #expect(byType.tokenEndpointAuthMethod == "none" && byType.grantTypes == ["authorization_code"])
    let post = try fields(#"{"token_endpoint_auth_method": "client_secret_post"}"#)
      .newClient(registrationType: "manual")
    #expect(post.clientType == "confidential")
  }

  @Test func aCreateIsRefusedAsGoTrueRefusesIt() throws {
    let uri = #""redirect_uris": ["https://a.example/cb"]"#
    let cases: [(String, String)] = [
      ("{}", "redirect_uris is required"),
      (#"{"redirect_uris": []}"#, "redirect_uris is required"),
      (
        #"{"redirect_uris": ["http://a.example/cb"]}"#,
        "invalid redirect_uri 'http://a.example/cb': HTTP scheme only allowed for localhost"
      ),
      (
        "{\"redirect_uris\": ["
          + Array(repeating: "\"https://a.example\"", count: 11)
          .joined(separator: ",") + "]}", "redirect_uris cannot exceed 10 items"
      ),
      (
        "{\(uri), \"grant_types\": [\"implicit\"]}",
        "grant_types must only contain 'authorization_code' and/or 'refresh_token'"
      ),
      (
        "{\(uri), \"client_name\": \"\(String(repeating: "é", count: 513))\"}",
        "client_name cannot exceed 1024 characters"
      ),
      ("{\(uri), \"client_uri\": \"example.com\"}", "client_uri must be a valid URL"),
      ("{\(uri), \"logo_uri\": \"a b\"}", "logo_uri must be a valid URL"),
      ("{\(uri), \"client_type\": \"secret\"}", "client_type must be 'public' or 'confidential'"),
      (
        "{\(uri), \"token_endpoint_auth_method\": \"private_key_jwt\"}",
        "token_endpoint_auth_method must be one of: [none client_secret_basic client_secret_post]"
      ),
      (
        "{\(uri), \"client_type\": \"public\", \"token_endpoint_auth_method\": \"client_secret_post\"}",
        "client_type 'public' is inconsistent with token_endpoint_auth_method 'client_secret_post' "
          + "(expected client_type 'confidential')"
      ),
    ]
    for (body, problem) in cases {
      #expect(try fields(body).registrationProblem == problem, "\(body.prefix(80))")
    }
    #expect(try fields("{\(uri), \"grant_types\": []}").registrationProblem == nil)
  }

  @Test func anUpdateIsCheckedAndAppliedAsGoTrueDoes() throws {
    let client = try fields(#"{"redirect_uris": ["https://a.example/cb"], "client_name": "A"}"#)
      .newClient(registrationType: "manual")
    #expect(try fields(#"{"client_type": "public", "client_name": null}"#).isEmptyUpdate)
    #expect(try fields(#"{"redirect_uris": []}"#).updateProblem == "redirect_uris cannot be empty")
    #expect(try fields(#"{"grant_types": []}"#).updateProblem == "grant_types cannot be empty")
    #expect(
      try fields(#"{"token_endpoint_auth_method": "x"}"#).updateProblem
        == "invalid token_endpoint_auth_method: must be one of [none client_secret_basic client_secret_post]"
    )
    let (renamed, fine) = try fields(#"{"client_name": "", "logo_uri": "https://a.example/l.png"}"#)
      .applied(to: client)
    #expect(
      fine == nil && renamed.clientName == nil && renamed.logoURI == "https://a.example/l.png")
    #expect(renamed.redirectURIs == client.redirectURIs)
    let (_, refused) = try fields(#"{"token_endpoint_auth_method": "none"}"#).applied(to: client)
    #expect(
      refused
        == "token_endpoint_auth_method 'none' is not valid for client_type 'confidential'; "
        + "valid methods: [client_secret_basic client_secret_post]")
  }
}
