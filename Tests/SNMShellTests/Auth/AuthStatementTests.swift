import Foundation
import SNMNetwork
import SNMSupabase
import SNMTestSupport
import Testing

@testable import SNMShell

/// A shell against a loopback server that plays GoTrue's admin routes and the local inbox, with
/// or without a service key (the end-to-end tests use the real local project).
struct AuthRig {
  let directory = NSTemporaryDirectory() + "snm-shell-auth-" + UUID().uuidString
  let output = OutputWriter()
  let errors = OutputWriter()
  let shell: StatementExecutor

  static let serviceKey = "sb_secret_AuthRigServiceKey0000000_abcdefgh"

  init(_ server: LoopbackHTTPServer, serviceKey: String? = AuthRig.serviceKey) throws {
    let project = try ProjectSelection(
      url: server.baseURL, key: "sb_publishable_rig", serviceKey: serviceKey)
    let sessions = SessionManager(
      project: project.url.absoluteString, store: FileSessionStore(directory: directory),
      auth: StubAuth())
    shell = StatementExecutor(
      project: project, options: ShellOptions(), output: output, errors: errors,
      sessions: sessions, auth: StubAuth(), signals: InterruptSignals())
  }

  /// Everything printed, both streams.
  var printed: String { output.captured + errors.captured }
}

@Suite(.timeLimit(.minutes(1))) struct AuthStatementTests {
  static let users = #"""
    {"users": [
      {"id": "11111111-1111-4111-8111-111111111111", "email": "ci-1@example.com", "created_at": "2026-12-01T10:00:00Z"},
      {"id": "22222222-2222-4222-8222-222222222222", "email": "x-ci-2@example.com", "created_at": "2026-12-01T10:00:01Z"}
    ], "aud": "authenticated"}
    """#

  @Test func adminUsersGoWithTheServiceKeyAndMatchThePatternWhole() async throws {
    let server = try LoopbackHTTPServer { _ in
      .respond(status: 200, headers: ["X-Total-Count": "2"], body: Self.users)
    }
    defer { server.stop() }
    let rig = try AuthRig(server)
    let code = await rig.shell.run(
      text: "let users = admin users where email ilike 'CI-%' limit 10 page 2\n"
        + "expect rows 1\nexpect $users[0].email == 'ci-1@example.com'", name: "-c")
    #expect(code == .success, "\(rig.printed)")
    let request = try #require(server.requests.first)
    #expect(request.method == "GET")
    #expect(request.target == "/auth/v1/admin/users?page=2&per_page=10&filter=ci-")
    #expect(request.headers["apikey"] == AuthRig.serviceKey)
    // A new secret key is never a bearer token (the gateway mints one).
    #expect(request.headers["authorization"] == nil)
    #expect(!rig.printed.contains(AuthRig.serviceKey))
  }

  @Test func withoutAServiceKeyNothingIsSent() async throws {
    let server = try LoopbackHTTPServer { _ in .respond(status: 200, body: Self.users) }
    defer { server.stop() }
    let rig = try AuthRig(server, serviceKey: nil)
    for statement in [
      "admin users", "inbox 'kim@example.com'", "as service from user_info select *",
      "admin delete user 11111111-1111-4111-8111-111111111111",
    ] {
      let code = await rig.shell.run(text: statement, name: "-c")
      #expect(code == .usage, "\(statement)")
    }
    #expect(server.requests.isEmpty)
    #expect(rig.errors.captured.contains("needs the project's service key: pass --service-key"))
  }

  @Test func asServiceSendsTheServiceKeyAndNoSession() async throws {
    // The delete answers without a body (`return=minimal`); the read with its rows.
    let server = try LoopbackHTTPServer { request in
      .respond(
        status: 200, headers: ["Content-Range": "*/1"], body: request.method == "GET" ? "[]" : "")
    }
    defer { server.stop() }
    let rig = try AuthRig(server)
    let code = await rig.shell.run(
      text: "as service from dog_profile delete where owner eq 'x'\nfrom dog_profile select *",
      name: "-c")
    #expect(code == .success, "\(rig.printed)")
    let requests = server.requests
    #expect(requests.count == 2)
    #expect(requests[0].method == "DELETE")
    #expect(requests[0].headers["apikey"] == AuthRig.serviceKey)
    #expect(requests[0].headers["authorization"] == nil)
    // The next statement is back on the project's own key.
    #expect(requests[1].headers["apikey"] == "sb_publishable_rig")
    #expect(rig.shell.takeRanAsService())
  }

  @Test func theInboxGivesTheNewestMailAndItsCode() async throws {
    let server = try LoopbackHTTPServer { _ in
      .respond(
        status: 200,
        body: #"[{"id": "m1", "to": "kim@example.com", "kind": "signup", "subject": "Confirm","#
          + #" "otp": "654321", "token_hash": "abc", "link": "http://x/verify?token=abc","#
          + #" "sent_at": "2026-12-01T10:00:00Z", "text": "..."}]"#)
    }
    defer { server.stop() }
    let rig = try AuthRig(server)
    let code = await rig.shell.run(
      text: "let mail = inbox 'kim@example.com'\nexpect $mail.otp == '654321'\n"
        + "expect $mail.kind == 'signup'", name: "-c")
    #expect(code == .success, "\(rig.printed)")
    #expect(server.requests.first?.target == "/inbox/v1/messages?to=kim%40example.com&limit=1")
  }

  @Test func aHostedProjectHasNoInbox() async throws {
    let server = try LoopbackHTTPServer { _ in .respond(status: 404, body: "404 page not found") }
    defer { server.stop() }
    let rig = try AuthRig(server)
    let code = await rig.shell.run(text: "inbox 'kim@example.com'", name: "-c")
    #expect(code == .usage)
    #expect(rig.errors.captured.contains("the inbox is a local-project feature"))
  }

  @Test func aRefusedServiceKeyIsAnAuthenticationFailure() async throws {
    let server = try LoopbackHTTPServer { _ in
      .respond(
        status: 403, headers: ["Content-Type": "application/json"],
        body: #"{"code": "not_admin", "message": "User not allowed"}"#)
    }
    defer { server.stop() }
    let rig = try AuthRig(server)
    let code = await rig.shell.run(
      text: "admin user 11111111-1111-4111-8111-111111111111", name: "-c")
    #expect(code == .unreachable)
    #expect(rig.errors.captured.contains("the project refused the service key"))
    #expect(!rig.printed.contains(AuthRig.serviceKey))
  }

  @Test func adminCreateUserSendsGoTruesBodyAndMasksThePassword() async throws {
    let server = try LoopbackHTTPServer { _ in
      .respond(
        status: 200,
        body: #"{"id": "11111111-1111-4111-8111-111111111111", "email": "ci-1@example.com"}"#)
    }
    defer { server.stop() }
    let rig = try AuthRig(server)
    let code = await rig.shell.run(
      text: "let u = admin create user email 'ci-1@example.com' password 'Secret-pw-1' confirmed "
        + #"data {"nick": "ci"}"# + "\nexpect $u.email == 'nobody'", name: "-c")
    #expect(code == .failure)
    let request = try #require(server.requests.first)
    #expect(request.method == "POST")
    #expect(request.target == "/auth/v1/admin/users")
    #expect(
      String(decoding: request.body, as: UTF8.self)
        == #"{"email":"ci-1@example.com","password":"Secret-pw-1","email_confirm":true,"#
        + #""user_metadata":{"nick":"ci"}}"#)
    #expect(!rig.printed.contains("Secret-pw-1"))
  }

  @Test func theHistoryNeverKeepsACodeOrAKey() {
    for statement in [
      "verify otp email 'k@e.c' token '123456'", "mfa verify code '123456'",
      "mfa verify $f.id secret $f.secret", "user update password 'x' nonce '1'",
      "admin create user email 'a@b.c' password 'pw'",
    ] {
      #expect(!HistoryPolicy.mayRecord(statement), "\(statement)")
    }
    #expect(HistoryPolicy.mayRecord("admin users where email ilike 'ci-%'"))
    #expect(HistoryPolicy.mayRecord("as service from dog_profile delete where owner eq $id"))
  }
}
