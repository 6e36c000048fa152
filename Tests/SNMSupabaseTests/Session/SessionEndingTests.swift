import Foundation
import SNMNetwork
import Synchronization
import Testing

@testable import SNMSupabase

struct EndingCase: Sendable, CustomStringConvertible {
  let code: AuthErrorCode
  let message: String
  var description: String { code.rawValue }
}

@Suite struct SessionEndingTests {
  @Test(arguments: [
    EndingCase(code: .refreshTokenAlreadyUsed, message: "Invalid Refresh Token: Already Used"),
    EndingCase(
      code: .refreshTokenNotFound, message: "Invalid Refresh Token: Refresh Token Not Found"),
    EndingCase(
      code: .sessionNotFound, message: "Session from session_id claim in JWT does not exist"),
  ])
  func theServerEndingTheSessionSignsOut(_ ending: EndingCase) async throws {
    let rig = try Rig()
    defer { rig.directory.remove() }
    let manager = rig.manager()
    await manager.saveSession(for: rig.auth.issue())
    rig.auth.failRefreshes(
      with: SupabaseAuthError(status: 400, code: ending.code, message: ending.message))
    rig.clock.advance(by: 4000)

    let result = await manager.checkSession()
    #expect(result.failure == .endedByServer(ending.code))
    // The file keeps the mark that the server ended the session, and no token.
    let kept = try String(contentsOfFile: rig.sessionPath, encoding: .utf8)
    #expect(kept.contains(ending.code.rawValue) && !kept.contains("access-1"))
    #expect(!kept.contains("refresh-1"))
    #expect(await manager.userID.failure == .signedOut)
    // At the prompt: signed out, requests go with the API key, and no second refresh is tried.
    #expect(try await manager.requestToken() == nil)
    #expect(rig.auth.refreshCount == 1)
    let message = "\(result.failure.map(String.init(describing:)) ?? "")"
    #expect(message.contains(ending.code.rawValue) && message.contains("login"))
  }

  /// A later run (a script: requests may not go signed out in a stored session's place) is told
  /// the server ended the session, until a sign-in or `logout` replaces the mark; the prompt
  /// warns once and goes signed out.
  @Test func aLaterRunIsToldTheServerEndedTheSession() async throws {
    let rig = try Rig()
    defer { rig.directory.remove() }
    await rig.manager().saveSession(for: rig.auth.issue())
    rig.auth.failRefreshes(
      with: SupabaseAuthError(status: 400, code: .refreshTokenNotFound, message: "gone"))
    rig.clock.advance(by: 4000)
    _ = await rig.manager().checkSession()

    let prompt = rig.manager()
    #expect(try await prompt.requestToken() == nil)
    #expect(rig.warnings.all.count == 1)
    let warning = rig.warnings.all.first ?? ""
    #expect(warning.contains("ended by the server (refresh_token_not_found)"))
    let script = rig.manager()
    await script.configure(project: Rig.project, auth: rig.auth, requiresStored: true)
    await #expect {
      try await script.requestToken()
    } throws: { error in
      guard case SupabaseSessionError.storedUnusable(.endedByServer(let path, let code, _)) = error
      else { return false }
      return path == rig.sessionPath && code == "refresh_token_not_found"
    }
    await script.goOnSignedOut()
    #expect(!FileManager.default.fileExists(atPath: rig.sessionPath))
    let next = rig.manager()
    await next.configure(project: Rig.project, auth: rig.auth, requiresStored: true)
    #expect(try await next.requestToken() == nil)
  }

  @Test func anOrdinaryRefusalKeepsTheSession() async throws {
    let rig = try Rig()
    defer { rig.directory.remove() }
    let manager = rig.manager()
    await manager.saveSession(for: rig.auth.issue())
    rig.auth.failRefreshes(
      with: SupabaseAuthError(status: 429, code: .overRequestRateLimit, message: "slow down"))
    rig.clock.advance(by: 4000)

    #expect(await manager.checkSession().failure?.isRefreshFailure == true)
    #expect(FileManager.default.fileExists(atPath: rig.sessionPath))
    rig.auth.failRefreshes(with: nil)
    #expect(try await manager.accessToken.get() == "access-2")
  }

  @Test func aRequestRefusedForAnExpiredJWTIsRetriedOnceAfterARefresh() async throws {
    let rig = try Rig()
    defer { rig.directory.remove() }
    let manager = rig.manager()
    await manager.saveSession(for: rig.auth.issue())
    let seen = Calls()

    let answer = try await manager.authorized { token in
      seen.add(token)
      if token == "access-1" { throw Self.expired(code: "PGRST303", message: "JWT expired") }
      return "rows for \(token ?? "anon")"
    }
    #expect(answer == "rows for access-2")
    #expect(seen.all == ["access-1", "access-2"])
    #expect(rig.auth.refreshCount == 1)
  }

  @Test func postgrest12sJWTExpiredIsRetriedToo() async throws {
    let rig = try Rig()
    defer { rig.directory.remove() }
    let manager = rig.manager()
    await manager.saveSession(for: rig.auth.issue())
    let seen = Calls()
    _ = try await manager.authorized { token in
      seen.add(token)
      if token == "access-1" { throw Self.expired(code: "PGRST301", message: "JWT expired") }
      return 1
    }
    #expect(seen.all == ["access-1", "access-2"])
  }

  @Test func onlyOneRetryAndOnlyForExpiry() async throws {
    let rig = try Rig()
    defer { rig.directory.remove() }
    let manager = rig.manager()
    await manager.saveSession(for: rig.auth.issue())
    let seen = Calls()
    await #expect(throws: SNMNetworkError.self) {
      _ = try await manager.authorized { token -> Int in
        seen.add(token)
        throw Self.expired(code: "PGRST303", message: "JWT expired")
      }
    }
    #expect(seen.all == ["access-1", "access-2"])

    let other = Calls()
    await #expect(throws: SNMNetworkError.self) {
      _ = try await manager.authorized { token -> Int in
        other.add(token)
        throw Self.expired(code: "PGRST301", message: "Expected 3 parts in JWT; got 1")
      }
    }
    #expect(other.all == ["access-2"])
    #expect(rig.auth.refreshCount == 1)
  }

  @Test func signedOutRequestsUseTheAPIKeyAndAreNotRetried() async throws {
    let rig = try Rig()
    defer { rig.directory.remove() }
    let manager = rig.manager()
    let seen = Calls()
    await #expect(throws: SNMNetworkError.self) {
      _ = try await manager.authorized { token -> Int in
        seen.add(token)
        throw Self.expired(code: "PGRST303", message: "JWT expired")
      }
    }
    #expect(seen.all == [nil])
    #expect(rig.auth.refreshCount == 0)
  }

  @Test func signOutDeletesTheStoredSessionThenTellsTheServer() async throws {
    let rig = try Rig()
    defer { rig.directory.remove() }
    let manager = rig.manager()
    await manager.saveSession(for: rig.auth.issue())
    rig.auth.state.withLock {
      $0.signOutError = SupabaseAuthError(status: 403, code: .sessionNotFound, message: "gone")
    }
    try await manager.signOut(scope: .local)
    #expect(!FileManager.default.fileExists(atPath: rig.sessionPath))
    #expect(rig.auth.state.withLock { $0.signOuts.map(\.token) } == ["access-1"])
    #expect(await manager.userID.failure == .signedOut)
    try await manager.signOut()  // nothing to end: no request
    #expect(rig.auth.state.withLock { $0.signOuts.count } == 1)
  }

  static func expired(code: String, message: String) -> SNMNetworkError {
    let body = Data(
      "{\"code\":\"\(code)\",\"details\":null,\"hint\":null,\"message\":\"\(message)\"}".utf8)
    let response = SNMResponse(
      url: "http://127.0.0.1:54399/rest/v1/user_info", status: 401,
      headers: ["Content-Type": "application/json"], body: body)
    return .http(SNMServerError(response: response))
  }
}

/// The tokens an operation was called with.
final class Calls: Sendable {
  private let tokens = Mutex<[String?]>([])
  var all: [String?] { tokens.withLock { $0 } }
  func add(_ token: String?) { tokens.withLock { $0.append(token) } }
}

extension Result {
  var failure: Failure? {
    if case .failure(let error) = self { return error }
    return nil
  }
}

extension SupabaseSessionError {
  var isRefreshFailure: Bool {
    if case .refreshFailed = self { return true }
    return false
  }
}
