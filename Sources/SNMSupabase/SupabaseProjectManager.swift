import SNMNetwork

/// A manager that starts builder chains against one project with the session's token:
/// ``SupabaseDBManager`` (REST) and ``SupabaseStorageManager`` (Storage). What they share is their
/// ``link``: the project's config, the provider and the token; each adds its own chains.
///
/// ```swift
/// let db = SupabaseDBManager(config: config, provider: provider, accessToken: token)
/// let storage = SupabaseStorageManager(link: db.link)
/// storage.config == db.config   // true
/// ```
public protocol SupabaseProjectManager: Sendable {
  /// The project, the provider and the session's token this manager's requests go with.
  var link: SupabaseProjectLink { get }

  /// A manager on `link`: the project, connection pool and token of the manager it came from.
  init(link: SupabaseProjectLink)
}

extension SupabaseProjectManager {
  public var config: SupabaseConfig { link.config }
  public var provider: SNMNetworkProvider { link.provider }

  /// The DB layer knows nothing of Auth, nor does Storage: the `accessToken` closure is asked
  /// once per request, and its `nil` means "send the API key as the bearer".
  ///
  /// - Parameters:
  ///   - provider: shared with Auth and the other managers so all reuse one connection pool; by
  ///     default one is made for `config` (API key from `config.anonKey`).
  ///   - accessToken: the session's JWT, or nil without a session.
  public init(
    config: SupabaseConfig, provider: SNMNetworkProvider? = nil,
    accessToken: @escaping @Sendable () async throws -> String? = { nil }
  ) {
    self.init(
      link: SupabaseProjectLink(config: config, provider: provider, accessToken: accessToken))
  }
}
