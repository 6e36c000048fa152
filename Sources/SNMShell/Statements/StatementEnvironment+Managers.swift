import SNMNetwork
import SNMSupabase

extension StatementEnvironment {
  /// The manager queries and `rpc` compile against: this project, the shared provider, the
  /// session's token per request; the service key and no session `as service`.
  var dbManager: SupabaseDBManager {
    let (config, provider, accessToken) = client
    return SupabaseDBManager(config: config, provider: provider, accessToken: accessToken)
  }

  /// The Storage manager Storage statements compile against, as ``dbManager``.
  var storageManager: SupabaseStorageManager {
    let (config, provider, accessToken) = client
    return SupabaseStorageManager(config: config, provider: provider, accessToken: accessToken)
  }

  /// What the DB and Storage managers send with: the project's key and the session's token, or
  /// the service key and no session `as service`.
  private var client: (SupabaseConfig, SNMNetworkProvider, @Sendable () async throws -> String?) {
    if connection.asService, let serviceProvider = connection.serviceProvider {
      return (serviceConfig, serviceProvider, { nil })
    }
    return (project.supabaseConfig, connection.provider, accessTokenProvider)
  }

  /// The Auth manager of the account and MFA statements: this project, the shared provider.
  var authManager: SupabaseAuthManager {
    SupabaseAuthManager(config: project.supabaseConfig, provider: connection.provider)
  }

  /// The admin manager, with the service key; nil when the project has none.
  var adminManager: SupabaseAdminManager? {
    connection.serviceProvider.map {
      SupabaseAdminManager(url: project.url.absoluteString, provider: $0)
    }
  }

  /// The bearer token for the REST requests of the statements: the session's access token,
  /// refreshed first when it is about to expire; nil when signed out (the provider then sends the
  /// project's key).
  var accessTokenProvider: @Sendable () async throws -> String? {
    { [sessions] in try await sessions.requestToken() }
  }

  /// The service key's manager config: the project's URL with the service key.
  var serviceConfig: SupabaseConfig {
    SupabaseConfig(url: project.url.absoluteString, anonKey: project.serviceKey ?? project.key)
  }
}
