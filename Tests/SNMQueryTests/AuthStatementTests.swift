import Foundation
import SNMSupabase
import SNMWire
import Testing

@testable import SNMQuery

/// The account, MFA, admin and inbox statements and `as service`: every form parses to one
/// canonical spelling, the checker refuses what cannot be sent, `explain` shows each request.
@Suite struct AuthStatementTests {
  static let forms: [CanonicalCase] = [
    CanonicalCase("user show", "user show"),
    CanonicalCase(#"user update {"nick": "kim"}"#, #"user update {"nick": "kim"}"#),
    CanonicalCase("user update email 'new@b.c'", #"user update email "new@b.c""#),
    CanonicalCase(
      "user update password $env.NEW nonce '123456'",
      #"user update password $env.NEW nonce "123456""#),
    CanonicalCase("user reauthenticate", "user reauthenticate"),
    CanonicalCase(
      #"signup email 'a@b.c' password 'pw12345' data {"nick": "a"}"#,
      #"signup email "a@b.c" password "pw12345" data {"nick": "a"}"#),
    CanonicalCase("session refresh", "session refresh"),
    CanonicalCase("logout global", "logout global"),
    CanonicalCase("LOGOUT Others", "logout others"),
    CanonicalCase("logout local", "logout local"),
    CanonicalCase("password reset 'kim@example.com'", #"password reset "kim@example.com""#),
    CanonicalCase("login otp email kim@example.com", #"login otp email "kim@example.com""#),
    CanonicalCase("login magic link 'kim@example.com'", #"login magic link "kim@example.com""#),
    CanonicalCase(
      "login Apple id-token $env.APPLE_TOKEN nonce 'raw-1'",
      #"login apple id-token $env.APPLE_TOKEN nonce "raw-1""#),
    CanonicalCase("login google id_token 'a.b.c'", #"login google id-token "a.b.c""#),
    CanonicalCase("login provider GitHub", "login provider github"),
    CanonicalCase(
      "verify otp email 'k@e.c' token '123456' type signup",
      #"verify otp email "k@e.c" token "123456" type signup"#),
    CanonicalCase(
      "verify otp email 'k@e.c' token $x.otp", #"verify otp email "k@e.c" token $x.otp"#),
    CanonicalCase("resend signup 'k@e.c'", #"resend signup "k@e.c""#),
    CanonicalCase("login otp phone '+15555550100'", #"login otp phone "+15555550100""#),
    CanonicalCase(
      "verify otp phone '+15555550100' token $x.otp",
      #"verify otp phone "+15555550100" token $x.otp"#),
    CanonicalCase(
      "VERIFY OTP PHONE $x.phone token '1' type phone_change",
      #"verify otp phone $x.phone token "1" type phone_change"#),
    CanonicalCase("resend sms '+15555550100'", #"resend sms "+15555550100""#),
    CanonicalCase("resend sms phone $x.phone", "resend sms $x.phone"),
    CanonicalCase("mfa factors", "mfa factors"),
    CanonicalCase("mfa enroll totp name 'phone'", #"mfa enroll totp name "phone""#),
    CanonicalCase("mfa verify code '123456'", #"mfa verify code "123456""#),
    CanonicalCase("mfa verify $x.id secret $x.secret", "mfa verify factor $x.id secret $x.secret"),
    CanonicalCase(
      "mfa unenroll 0c8e5f7a-6b9d-4f1e-9a3b-2d4c6e8f0a1b",
      "mfa unenroll 0c8e5f7a-6b9d-4f1e-9a3b-2d4c6e8f0a1b"),
    CanonicalCase(
      "admin users where email ilike 'ci-%' limit 10 page 2",
      #"admin users where email ilike "ci-%" limit 10 page 2"#),
    CanonicalCase("admin users", "admin users"),
    CanonicalCase("admin user $x.id", "admin user $x.id"),
    CanonicalCase(
      #"admin create user email 'ci@b.c' password 'pw12345' confirmed data {"a": 1}"#,
      #"admin create user email "ci@b.c" password "pw12345" confirmed data {"a": 1}"#),
    CanonicalCase(
      #"admin update user $x.id {"ban_duration": "24h"}"#,
      #"admin update user $x.id {"ban_duration": "24h"}"#),
    CanonicalCase("admin delete user $x.id soft", "admin delete user $x.id soft"),
    CanonicalCase(
      "admin link magiclink email 'k@e.c'", #"admin link magiclink email "k@e.c""#),
    CanonicalCase("admin invite 'k@e.c'", #"admin invite "k@e.c""#),
    CanonicalCase("inbox 'kim@example.com'", #"inbox "kim@example.com""#),
    CanonicalCase(
      "as service from dog_profile delete where owner eq $me",
      "as service from dog_profile delete where owner eq $me"),
    CanonicalCase("let mail = inbox 'k@e.c'", #"let mail = inbox "k@e.c""#),
    CanonicalCase(
      "let f = mfa enroll totp\nmfa verify $f.id secret $f.secret",
      "let f = mfa enroll totp\nmfa verify factor $f.id secret $f.secret"),
  ]

  @Test(arguments: forms)
  func statementForm(_ testCase: CanonicalCase) {
    #expect(canonical(testCase.input) == testCase.canonical)
  }

  struct Refusal: Sendable, CustomTestStringConvertible {
    var input: String
    var message: String
    var testDescription: String { input.debugDescription }
  }

  static let refusals: [Refusal] = [
    Refusal(input: "user", message: "expected show, update or reauthenticate after 'user'"),
    Refusal(input: "user update", message: "expected {...}, 'email' or 'password'"),
    Refusal(input: "logout everywhere", message: "expected 'local', 'others' or 'global'"),
    Refusal(input: "admin user 'not-a-uuid'", message: "a user id must be a UUID"),
    Refusal(input: "admin update user $x.id 3", message: "needs an object {...}"),
    Refusal(input: "admin link signup email 'k@e.c'", message: "expected 'password'"),
    Refusal(input: "admin users page 0", message: "'page' needs a whole number from 1"),
    Refusal(input: "as service login", message: "'as service' runs a query, rpc or storage"),
    Refusal(input: "as service admin users", message: "'as service' runs a query, rpc or storage"),
    Refusal(input: "verify otp email 'k@e.c' token '1' type bogus", message: "expected email"),
    Refusal(input: "mfa verify", message: "a factor id, 'code' or 'secret'"),
    Refusal(input: "login otp sms '+1555'", message: "expected 'email' or 'phone'"),
    Refusal(input: "login apple token 'a.b.c'", message: "expected 'id-token' after 'login apple'"),
    Refusal(input: "login apple id-token", message: "expected the id_token after 'id-token'"),
    Refusal(input: "login apple id-token a.b.c", message: "found an unquoted token"),
    Refusal(input: "login provider gihtub", message: "did you mean 'github'?"),
    Refusal(input: "verify otp phone '+1555' token '1' type signup", message: "expected sms"),
    Refusal(input: "verify otp phone '+1555' code '1'", message: "expected 'token'"),
  ]

  @Test(arguments: refusals)
  func refused(_ refusal: Refusal) {
    let text = canonical(refusal.input)
    #expect(text.contains("error:"), "\(text)")
    #expect(text.contains(refusal.message), "\(text)")
  }

  /// `explain --json` of `text` against the default URL, one object a line.
  func explained(_ text: String) throws -> [JSONValue] {
    let outcome = RequestExplainer.explain(
      Source(text: text), format: .json, url: RequestExplainer.defaultURL,
      scope: VariableScope(environment: ["NEW": "n3w-Passw0rd"], placeholders: true))
    guard case .explained(let rendered) = outcome else {
      Issue.record("not explained: \(outcome)")
      return []
    }
    return try rendered.split(separator: "\n").map { try JSONValue(parsing: String($0)) }
  }

  @Test func explainShowsEachRequestWithItsSecretsMasked() throws {
    let update = try #require(try explained("user update password $env.NEW").first)
    #expect(update["method"] == "PUT")
    #expect(update["path"] == "/auth/v1/user")
    #expect(update["body"] == ["password": "********"])
    #expect(update["credential"] == "session")
    let verify = try explained("verify otp email 'k@e.c' token '123456'")
    #expect(verify.first?["body"] == ["type": "email", "email": "k@e.c", "token": "********"])
    let text = try explained("verify otp phone '+1555' token '123456'")
    #expect(text.first?["body"] == ["type": "sms", "phone": "+1555", "token": "********"])
    let sent = try explained("login otp phone '+1555'")
    #expect(sent.first?["body"] == ["phone": "+1555", "create_user": true, "channel": "sms"])
    let mfa = try explained("mfa verify factor 0c8e5f7a-6b9d-4f1e-9a3b-2d4c6e8f0a1b code '123456'")
    #expect(
      mfa.map { $0["path"]?.stringValue ?? "" } == [
        "/auth/v1/factors/0c8e5f7a-6b9d-4f1e-9a3b-2d4c6e8f0a1b/challenge",
        "/auth/v1/factors/0c8e5f7a-6b9d-4f1e-9a3b-2d4c6e8f0a1b/verify",
      ])
    let users = try #require(try explained("admin users where email ilike 'CI-%' limit 5").first)
    #expect(users["url"] == "http://127.0.0.1:54321/auth/v1/admin/users?per_page=5&filter=ci-")
    #expect(users["credential"] == "service")
    let delete = try #require(
      try explained("admin delete user 0c8e5f7a-6b9d-4f1e-9a3b-2d4c6e8f0a1b soft").first)
    #expect(delete["method"] == "DELETE")
    #expect(delete["body"] == ["should_soft_delete": true])
    let service = try #require(try explained("as service from user_info select id").first)
    #expect(service["credential"] == "service")
    #expect(service["path"] == "/rest/v1/user_info")
  }

  @Test func explainShowsTheSignInsThroughAnotherProvider() throws {
    let apple = try #require(try explained("login apple id-token 'a.b.c' nonce 'raw'").first)
    #expect(apple["url"] == "http://127.0.0.1:54321/auth/v1/token?grant_type=id_token")
    #expect(apple["body"] == ["provider": "apple", "id_token": "********", "nonce": "********"])
    #expect(apple["credential"] == "key")
    let github = try explained("login provider github")
    #expect(github.map { $0["method"]?.stringValue ?? "" } == ["GET", "POST"])
    #expect(github.first?["path"] == "/auth/v1/authorize")
    #expect(github.last?["url"] == "http://127.0.0.1:54321/auth/v1/token?grant_type=pkce")
    #expect(github.last?["body"] == ["auth_code": "********", "code_verifier": "********"])
  }

  @Test func explainCurlNamesTheServiceKeyNeverItsValue() {
    let outcome = RequestExplainer.explain(
      Source(text: "as service storage ls avatars\nadmin invite 'k@e.c'"), format: .curl,
      url: RequestExplainer.defaultURL, scope: VariableScope())
    guard case .explained(let text) = outcome else {
      Issue.record("not explained: \(outcome)")
      return
    }
    #expect(text.contains(#"-H "apikey: $SUPABASE_SERVICE_ROLE_KEY""#))
    #expect(!text.contains("$SUPABASE_ANON_KEY"))
    #expect(!text.contains("$TOKEN"))
  }

  @Test func secretsAreMaskedInSourceText() {
    for (line, shown) in [
      ("verify otp email 'k@e.c' token '123456'", "verify otp email 'k@e.c' token '********'"),
      ("mfa verify code '654321'", "mfa verify code '********'"),
      (
        "user update password 'n3w-pw' nonce '998877'",
        "user update password '********' nonce '********'"
      ),
      ("login otp email 'k@e.c'", "login otp email 'k@e.c'"),
      ("login magic link 'k@e.c'", "login magic link 'k@e.c'"),
      ("mfa verify $f.id secret 'JBSWY3DP'", "mfa verify $f.id secret '********'"),
    ] {
      let source = Source(text: line)
      #expect(
        SecretMask.text(of: SourceRange(start: 0, end: source.bytes.count), in: source) == shown)
    }
  }

  @Test func theAdminFilterMatchesThePatternWhole() {
    let filter = AuthCall.UserFilter(op: .ilike, pattern: "CI-%@example.com")
    #expect(filter.serverFilter == "@example.com")
    #expect(filter.matches("ci-7@example.com"))
    #expect(!filter.matches("x-ci-7@example.com"))
    #expect(AuthCall.UserFilter(op: .like, pattern: "ci-_@*").matches("ci-1@b.c"))
    #expect(!AuthCall.UserFilter(op: .like, pattern: "ci-_@*").matches("ci-12@b.c"))
    #expect(AuthCall.UserFilter(op: .eq, pattern: "K@E.C").matches("k@e.c"))
  }

  @Test func checkKnowsTheStatementsOffline() {
    let source = Source(
      text: "let f = mfa enroll totp\nmfa verify $f.id secret $f.secret\n"
        + "admin delete user $f.id\nas service from user_info delete where id eq $f.id\n"
        + "admin user 'nope'", fileName: "t.snm")
    let diagnostics = OfflineCheck().diagnostics(for: source)
    #expect(diagnostics.map(\.message.id) == ["not-an-id"])
  }

  @Test func completionOffersTheWordsThatFit() {
    func words(_ text: String) -> [String] {
      CompletionContext.at(offset: text.utf8.count, in: text).keywords
    }
    #expect(["user", "mfa", "admin", "inbox", "verify", "as"].allSatisfy(words("").contains))
    #expect(words("admin ").starts(with: ["users", "user", "create", "update", "delete"]))
    #expect(words("mfa ") == ["factors", "enroll", "verify", "unenroll"])
    #expect(words("logout ").contains("global"))
    #expect(words("session ").contains("refresh"))
    #expect(words("login ").contains("otp"))
    #expect(words("as service ").contains("from"))
    #expect(words("admin users ").contains("where"))
  }
}
