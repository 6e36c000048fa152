import Foundation
import SNMNetwork
import SNMWire

/// Signs in, up and out against a project's `/auth/v1` (GoTrue), and refreshes sessions.
/// It keeps no session: what it returns goes to `SessionManager.shared.saveSession(for:)`.
///
/// ```swift
/// let auth = SupabaseAuthManager(config: SupabaseConfig(url: url, anonKey: key))
/// let session = try await auth.signIn(email: "kim@example.com", password: password)
/// ```
/// Throws ``SupabaseAuthError`` for a refusal (decoded from any of GoTrue's error formats),
/// ``AuthResponseError`` for a success answer that is not a session, and `SNMNetworkError` when
/// the server cannot be reached. No error or description holds a token or password.
public struct SupabaseAuthManager: AuthManageable {
  public let config: SupabaseConfig
  let provider: SNMNetworkProvider
  let now: @Sendable () -> Date

  public init(
    config: SupabaseConfig, provider: SNMNetworkProvider? = nil,
    now: @escaping @Sendable () -> Date = { Date() }
  ) {
    self.config = config
    self.provider =
      provider ?? SNMNetworkProvider(configuration: .init(apiKey: config.anonKey, timeout: 30))
    self.now = now
  }

  public func signInAnonymously() async throws -> SupabaseSession {
    try await session(from: .signUpAnonymously)
  }

  public func signIn(email: String, password: String) async throws -> SupabaseSession {
    try await session(from: .signInWithPassword(email: email, password: password))
  }

  public func signUp(email: String, password: String) async throws -> SupabaseSession {
    try await session(from: .signUp(email: email, password: password))
  }

  /// `POST /auth/v1/signup` with `data` as the new user's `user_metadata`.
  public func signUp(email: String, password: String, data: JSONValue?) async throws
    -> SupabaseSession
  {
    try await session(from: .signUp(email: email, password: password, data: data))
  }

  public func refreshSession(refreshToken: String) async throws -> SupabaseSession {
    try await session(from: .refresh(refreshToken: refreshToken))
  }

  public func signOut(accessToken: String, scope: SignOutScope) async throws {
    _ = try await send(.signOut(accessToken: accessToken, scope: scope))
  }

  public func user(accessToken: String) async throws -> SupabaseUser {
    let response = try await send(.user(accessToken: accessToken))
    do {
      return try JSONDecoder().decode(SupabaseUser.self, from: response.body)
    } catch {
      throw AuthResponseError.malformed("not a user")
    }
  }

  func session(from call: AuthEndpoint) async throws -> SupabaseSession {
    let response = try await send(call)
    return try SupabaseSession(response: response.body, now: now())
  }

  /// Sends `call`; a non-2xx answer becomes ``SupabaseAuthError``.
  func send(_ call: AuthEndpoint) async throws -> SNMResponse {
    do {
      return try await provider.send(endpoint: call.endpoint(base: config.url))
    } catch .http(let failure) {
      throw SupabaseAuthError(answer: failure)
    }
  }
}
