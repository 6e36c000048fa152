import Foundation
import SNMNetwork
import SNMQuery
import SNMSupabase
import SNMWire
import Synchronization
import Testing

@testable import SNMShell

/// An Auth server stand-in: one user, numbered tokens, an optional refusal.
final class StubAuth: AuthManageable {
  let refusal = Mutex<SupabaseAuthError?>(nil)
  let counter = Mutex(0)
  let userID = UUID(uuidString: "6f1b2c3d-0000-4000-8000-000000000001") ?? UUID()

  func session(email: String?) throws -> SupabaseSession {
    if let refusal = refusal.withLock({ $0 }) { throw refusal }
    let number = counter.withLock { count -> Int in
      count += 1
      return count
    }
    // A JWT whose payload says role authenticated (the signature is not checked).
    let method = email == nil ? "anonymous" : "password"
    let claims = #"{"role":"authenticated","sub":"x","aal":"aal1","amr":[{"method":"\#(method)"}]}"#
    let payload = Data(claims.utf8).base64EncodedString()
      .replacingOccurrences(of: "=", with: "")
    return SupabaseSession(
      accessToken: "eyJhbGciOiJIUzI1NiJ9.\(payload).secret-access-\(number)",
      refreshToken: "secret-refresh-\(number)", expiresIn: 3600,
      expiresAt: Date().addingTimeInterval(3600), obtainedAt: Date(),
      user: SupabaseUser(id: userID, email: email ?? "", isAnonymous: email == nil))
  }

  func signInAnonymously() async throws -> SupabaseSession { try session(email: nil) }
  func signIn(email: String, password: String) async throws -> SupabaseSession {
    try session(email: email)
  }
  func signUp(email: String, password: String) async throws -> SupabaseSession {
    try session(email: email)
  }
  func refreshSession(refreshToken: String) async throws -> SupabaseSession {
    try session(email: nil)
  }
  func signOut(accessToken: String, scope: SignOutScope) async throws {}
  func user(accessToken: String) async throws -> SupabaseUser { SupabaseUser(id: userID) }
}

struct ShellRig {
  let directory: String
  let output = OutputWriter()
  let errors = OutputWriter()
  let auth = StubAuth()
  let shell: StatementExecutor

  init(format: OutputFormat? = nil) throws {
    directory = NSTemporaryDirectory() + "snm-shell-session-" + UUID().uuidString
    let project = try ProjectSelection(url: "http://127.0.0.1:54398", key: "anon-key")
    let sessions = SessionManager(
      project: project.url.absoluteString, store: FileSessionStore(directory: directory),
      auth: auth)
    var options = ShellOptions()
    options.format = format
    shell = StatementExecutor(
      project: project, options: options, output: output, errors: errors, sessions: sessions,
      auth: auth)
  }

  func remove() { try? FileManager.default.removeItem(atPath: directory) }

  /// Everything the shell printed, and the contents of every file it wrote.
  func everything() -> String {
    let files = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    let contents = files.filter { !$0.hasSuffix(".json") }.compactMap {
      try? String(contentsOfFile: directory + "/" + $0, encoding: .utf8)
    }
    return ([output.captured, errors.captured] + contents).joined(separator: "\n")
  }
}

@Suite struct SessionStatementTests {
  @Test func loginThenShowNamesTheUserButNeverATokenAndThePromptFollows() async throws {
    let rig = try ShellRig()
    defer { rig.remove() }
    #expect(rig.shell.promptText(continuing: false) == "snm anon@local> ")
    #expect(
      (await rig.shell.runSession(.login(email: "kim@example.com", password: "pw-secret")))
        .succeeded)
    #expect((await rig.shell.runSession(.show)).succeeded)
    let lines = rig.output.captured.split(separator: "\n").map(String.init)
    #expect(lines[0] == "signed in as kim@example.com")
    #expect(lines[1] == "user_id     6f1b2c3d-0000-4000-8000-000000000001")
    #expect(lines[2] == "email       kim@example.com")
    #expect(lines[3] == "role        authenticated")
    #expect(lines[4] == "anonymous   no")
    #expect(lines[5] == "provider    email")
    #expect(lines[6] == "aal         aal1")
    #expect(lines[7].hasPrefix("expires_at  ") && lines[7].contains("(in 59m "))
    #expect(rig.shell.promptText(continuing: false) == "snm kim@local> ")
    #expect(!rig.everything().contains("secret"))
  }

  @Test func anonymousLoginAndJSONShow() async throws {
    let rig = try ShellRig(format: .json)
    defer { rig.remove() }
    #expect((await rig.shell.runSession(.loginAnonymously)).succeeded)
    #expect((await rig.shell.runSession(.show)).succeeded)
    let lines = rig.output.captured.split(separator: "\n").map(String.init)
    #expect(lines[0] == "signed in anonymously as 6f1b2c3d-0000-4000-8000-000000000001")
    let shown = try JSONValue(parsing: Data(lines[1].utf8))
    #expect(shown["user_id"] == "6f1b2c3d-0000-4000-8000-000000000001")
    #expect(shown["is_anonymous"] == true)
    #expect(shown["role"] == "authenticated")
    #expect(shown["access_token"] == nil)
  }

  @Test func aRefusedLoginSaysWhyAndExitsWith3() async throws {
    let rig = try ShellRig()
    defer { rig.remove() }
    rig.auth.refusal.withLock {
      $0 = SupabaseAuthError(
        status: 400, code: .invalidCredentials, message: "Invalid login credentials")
    }
    let result = await rig.shell.runSession(.login(email: "kim@example.com", password: "wrong-pw"))
    #expect(!result.succeeded)
    #expect(
      rig.errors.captured
        == "snm: login failed: auth server answered 400: Invalid login credentials "
        + "(invalid_credentials)\n")
    #expect(result.failure?.exitCode == .unreachable)
    #expect(!rig.everything().contains("wrong-pw"))
  }

  @Test func checkWhenSignedOutFailsAndShowSaysAnon() async throws {
    let rig = try ShellRig()
    defer { rig.remove() }
    #expect(!(await rig.shell.runSession(.check)).succeeded)
    #expect(rig.errors.captured.contains("not signed in"))
    #expect((await rig.shell.runSession(.show)).succeeded)
    #expect(rig.output.captured.contains("not signed in (requests use the project's API key"))
    #expect(await rig.shell.sessionValues()["role"] == "anon")
  }

  @Test func checkReportsTimeLeftAndLogoutForgetsTheSession() async throws {
    let rig = try ShellRig()
    defer { rig.remove() }
    #expect((await rig.shell.runSession(.loginAnonymously)).succeeded)
    #expect((await rig.shell.runSession(.check)).succeeded)
    // The token lasts an hour: the time left is under it, whatever the machine's load took
    // between the sign-in and the check (it was "59m 5" and failed once a loaded CI took 10 s).
    #expect(
      rig.output.captured.contains(
        #/signed in as anonymous \(authenticated\) with anonymous, aal1, 5\dm \d{1,2}s left/#),
      "\(rig.output.captured)")
    #expect((await rig.shell.runSession(.logout())).succeeded)
    #expect(rig.output.captured.hasSuffix("signed out\n"))
    #expect(rig.shell.promptText(continuing: false) == "snm anon@local> ")
    #expect(await rig.shell.sessionValues()["user_id"] == .null)
  }
}

@Suite struct SessionStatementParsingTests {
  @Test func aPasswordFromTheEnvironmentSignsIn() async throws {
    let rig = try ShellRig()
    defer { rig.remove() }
    setenv("SNM_TEST_SESSION_PW", "pw-from-env", 1)
    let parsed = Parser.parse(
      "login email 'kim@example.com' password $env.SNM_TEST_SESSION_PW")
    guard case .session(let statement)? = parsed.statements.first?.kind else {
      Issue.record("not a session statement: \(parsed.diagnostics)")
      return
    }
    #expect((await rig.shell.runSession(statement)).succeeded)
    #expect(rig.output.captured == "signed in as kim@example.com\n")
  }

  @Test func anUnsetEnvironmentVariableIsAUsageError() async throws {
    let rig = try ShellRig()
    defer { rig.remove() }
    let parsed = Parser.parse("signup email 'kim@example.com' password $env.SNM_UNSET_9")
    guard case .session(let statement)? = parsed.statements.first?.kind else {
      Issue.record("not a session statement")
      return
    }
    let result = await rig.shell.runSession(statement)
    #expect(!result.succeeded)
    #expect(
      rig.errors.captured
        == "snm: the environment variable SNM_UNSET_9 is not set ($env.SNM_UNSET_9)\n")
    #expect(result.failure?.exitCode == .usage)
  }
}
