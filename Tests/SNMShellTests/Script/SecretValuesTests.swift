import Foundation
import SNMTestSupport
import Testing

@testable import SNMShell

/// Secret values (passwords a sign-in used, secret-named environment variables) never show in
/// script failures, whatever statement brought them there.
@Suite(.timeLimit(.minutes(1))) struct SecretValuesTests {
  @Test(arguments: [
    ("SNM_PW", true), ("KIM_PASSWORD", true), ("GITHUB_TOKEN", true),
    ("SUPABASE_ANON_KEY", true), ("db_secret", true), ("PASS", true), ("PWD", false),
    ("HOME", false), ("PATH", false), ("SUPABASE_URL", false),
  ])
  func secretNames(_ name: String, _ secret: Bool) {
    #expect(SecretValues.namesASecret(name) == secret)
  }

  @Test func environmentValuesWithSecretNamesAreMasked() {
    let secrets = SecretValues(environment: [
      "SNM_PW": "envsecret-42", "API_TOKEN": "abc", "HOME": "/root/home-dir",
    ])
    #expect(secrets.mask(#"found: "envsecret-42""#) == #"found: "********""#)
    // Too short to mask without hiding ordinary words; not a secret by its name.
    #expect(secrets.mask("abc in /root/home-dir") == "abc in /root/home-dir")
  }

  @Test func registeredPasswordsAreMaskedLongestFirst() {
    let secrets = SecretValues(environment: [:])
    secrets.register("hunter2")
    secrets.register("hunter2-and-more")
    secrets.register("pw")
    #expect(secrets.mask("hunter2-and-more, hunter2, pw") == "********, ********, pw")
  }

  @Test func anExpectationOnASignInPasswordReportsItMasked() async throws {
    let server = try LoopbackHTTPServer { _ in .respond(status: 400, body: "{}") }
    defer { server.stop() }
    let rig = try ScriptRig(server)
    var runner = ScriptRunner(executor: rig.shell)
    let code = await runner.run(
      text: """
        set on_error continue
        login email 'kim@example.com' password 'hunter2!'
        let pw = 'hunter2!'
        expect $pw == 'x'
        """, name: "a.snm")
    #expect(code != .success)
    #expect(!rig.errors.captured.contains("\"hunter2!\""))
    #expect(rig.errors.captured.contains(#"found:    "********""#))
    let failure = try #require(runner.summary.failures.last)
    #expect(failure.found == #""********""#)
    #expect(!failure.text.contains("hunter2!"))
  }
}
