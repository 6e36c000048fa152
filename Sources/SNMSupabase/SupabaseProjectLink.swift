import SNMNetwork

/// What the DB and Storage managers share: one project's config, the provider its requests go
/// through, and the session's token, asked once per request (nil: the API key is the bearer).
/// A manager makes it in ``SupabaseProjectManager/init(config:provider:accessToken:)``; another
/// manager made from it (``SupabaseProjectManager/init(link:)``) shares all three. Opaque outside
/// this module: read the manager's `config` and `provider`.
///
/// ```swift
/// let db = SupabaseDBManager(
///   config: config, provider: provider,
///   accessToken: { try await SessionManager.shared.requestToken() })
/// let storage = SupabaseStorageManager(link: db.link)   // the same project, pool and token
/// ```
public struct SupabaseProjectLink: Sendable {
  let config: SupabaseConfig
  let provider: SNMNetworkProvider
  let accessToken: @Sendable () async throws -> String?

  /// `provider` is shared with the other managers so all reuse one connection pool; by default
  /// one is made for `config` (API key from `config.anonKey`).
  init(
    config: SupabaseConfig, provider: SNMNetworkProvider?,
    accessToken: @escaping @Sendable () async throws -> String?
  ) {
    self.config = config
    self.provider = provider ?? SNMNetworkProvider(configuration: .init(apiKey: config.anonKey))
    self.accessToken = accessToken
  }
}
