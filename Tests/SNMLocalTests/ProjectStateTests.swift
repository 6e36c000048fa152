import Foundation
import Synchronization
import Testing

@testable import SNMLocal
@testable import SNMLocalAuth

/// `project.json` and the JWT secret, read and written by several `snm local` processes at once
/// (`serve` starting while `status` polls).
@Suite struct ProjectStateTests {
  static func scratch() throws -> String {
    let dir = NSTemporaryDirectory() + "snm-state-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    return dir
  }

  static func state(_ dir: String, port: Int = 54330) -> ProjectState {
    ProjectState(
      dataDir: dir, port: port, jwtExpiry: 3600, refreshReuseInterval: 10, migrationsDir: nil,
      layout: ClusterLayout(baseDir: dir + "/postgres", owner: nil), keysIssuedAt: 1_700_000_000)
  }

  @Test func everyoneAskingAtOnceGetsTheOneSecret() throws {
    for _ in 0..<100 {
      let dir = try Self.scratch()
      defer { try? FileManager.default.removeItem(atPath: dir) }
      let secrets = Mutex<[[UInt8]]>([])
      DispatchQueue.concurrentPerform(iterations: 8) { _ in
        if let secret = try? Self.state(dir).secret() { secrets.withLock { $0.append(secret) } }
      }
      let all = secrets.withLock { $0 }
      try #require(all.count == 8)
      try #require(Set(all).count == 1, "one secret, whoever asked first")
      let onDisk = try #require(FileManager.default.contents(atPath: dir + "/jwt-secret"))
      try #require(Array(onDisk) == all.first)
      let attributes = try FileManager.default.attributesOfItem(atPath: dir + "/jwt-secret")
      try #require(attributes[.posixPermissions] as? Int == 0o600)
      let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir)
      try #require(leftovers == ["jwt-secret"], "no temporary files left")
    }
  }

  @Test func rateLimitsAreRememberedAndChangedByName() throws {
    let dir = try Self.scratch()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    var state = Self.state(dir)
    #expect(state.authRateLimits == AuthRateLimits())
    state.apply(rateLimitChanges: ["token_refresh=0", "anonymous_users=5"])
    try state.save()
    let loaded = try #require(try ProjectState.load(dataDir: dir))
    #expect(loaded.authRateLimits.tokenRefresh == 0)
    #expect(loaded.authRateLimits.anonymousUsers == 5)
    #expect(loaded.authRateLimits.signInSignUps == 30)
    #expect(
      loaded.rateLimitArguments == [
        "--auth-rate-limit", "token_refresh=0", "--auth-rate-limit", "sign_in_sign_ups=30",
        "--auth-rate-limit", "anonymous_users=5", "--auth-rate-limit", "token_verifications=30",
      ])
  }

  @Test func authSwitchesAreRemembered() throws {
    let dir = try Self.scratch()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    var state = Self.state(dir)
    #expect(state.authSwitches == AuthSwitches())
    state.authSwitches.apply(["confirm_email": true, "anonymous": false])
    try state.save()
    let loaded = try #require(try ProjectState.load(dataDir: dir))
    #expect(loaded.authSwitches.confirmEmail && !loaded.authSwitches.anonymous)
    #expect(
      loaded.authSwitchArguments == [
        "--confirm-email", "--signup", "--no-anonymous", "--no-secure-password-change",
        "--no-phone-signup", "--no-confirm-phone", "--no-apple", "--no-github",
        "--no-oauth-server",
      ])
  }

  @Test func providerKeysAreRemembered() throws {
    let dir = try Self.scratch()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    var state = Self.state(dir)
    #expect(state.providerKeys.isEmpty)
    state.providerKeys["apple"] = ProviderKeys.Source(
      jwks: "https://idp.example/keys", clientIDs: ["com.example.app", "com.example.web"])
    state.providerKeys["google"] = ProviderKeys.Source(jwks: "/keys.json", clientIDs: ["g"])
    try state.save()
    let loaded = try #require(try ProjectState.load(dataDir: dir))
    #expect(loaded.providerKeys == state.providerKeys)
  }

  @Test func theServeArgumentsCarryEverySetting() {
    var state = Self.state("/tmp/p", port: 54399)
    state.apply(rateLimitChanges: ["token_refresh=0"])
    state.authSwitches.apply(["confirm_email": true])
    #expect(
      state.serveArguments == [
        "local", "serve", "--dir", "/tmp/p", "--port", "54399", "--jwt-expiry", "3600",
        "--jwt-alg", state.jwtAlgorithm, "--refresh-reuse-interval", "10",
      ] + state.rateLimitArguments + state.authSwitchArguments + [
        "--file-size-limit", String(state.storageFileSizeLimit),
      ])
    #expect(state.serveArguments.contains("token_refresh=0"))
    #expect(state.serveArguments.contains("--confirm-email"))
  }

  @Test func smsTestCodesAreRememberedAndForgotten() throws {
    let dir = try Self.scratch()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    var state = Self.state(dir)
    state.apply(testOTPChanges: ["+1 555 555 0100=123456", "4152127777=654321"])
    try state.save()
    var loaded = try #require(try ProjectState.load(dataDir: dir))
    #expect(loaded.smsTestOTPs == ["15555550100": "123456", "4152127777": "654321"])
    loaded.apply(testOTPChanges: ["", "4152127777=111111"])
    #expect(loaded.smsTestOTPs == ["4152127777": "111111"])
    #expect(LocalProjectOptions.testOTP("+0123=123456") == nil)
    #expect(LocalProjectOptions.testOTP("15555550100=12") == nil)
    #expect(LocalProjectOptions.testOTP("15555550100") == nil)
  }

  @Test func aDamagedSecretIsReplaced() throws {
    let dir = try Self.scratch()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try Data("short".utf8).write(to: URL(fileURLWithPath: dir + "/jwt-secret"))
    let secret = try Self.state(dir).secret()
    #expect(secret.count == 64)
    #expect(try Self.state(dir).secret() == secret)
  }

  @Test func aReaderNeverSeesHalfAProjectFile() throws {
    let dir = try Self.scratch()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try Self.state(dir).save()
    let failures = Atomic<Int>(0)
    let done = Atomic<Bool>(false)
    let reader = Thread {
      while !done.load(ordering: .acquiring) {
        do {
          _ = try ProjectState.load(dataDir: dir)
        } catch {
          failures.add(1, ordering: .relaxed)
        }
      }
    }
    reader.start()
    for port in 0..<300 { try Self.state(dir, port: 50000 + port).save() }
    done.store(true, ordering: .releasing)
    Thread.sleep(forTimeInterval: 0.05)
    #expect(failures.load(ordering: .relaxed) == 0)
    #expect(try ProjectState.load(dataDir: dir)?.port == 50299)
  }
}
