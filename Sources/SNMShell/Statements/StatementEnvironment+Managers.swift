import SNMSupabase

extension StatementEnvironment {
  /// The manager queries and `rpc` compile against: this project, the shared provider, the
  /// session's token per request; the service key and no session `as service`.
  var dbManager: SupabaseDBManager {
    if connection.asService, let serviceProvider = connection.serviceProvider {
      return SupabaseDBManager(
        config: serviceConfig, provider: serviceProvider, accessToken: { nil })
    }
    return SupabaseDBManager(
      config: project.supabaseConfig, provider: connection.provider,
      accessToken: accessTokenProvider)
  }

  /// The Storage manager Storage statements compile against, as ``dbManager``.
  var storageManager: SupabaseStorageManager {
    if connection.asService, let serviceProvider = connection.serviceProvider {
      return SupabaseStorageManager(
        config: serviceConfig, provider: serviceProvider, accessToken: { nil })
    }
    return SupabaseStorageManager(
      config: project.supabaseConfig, provider: connection.provider,
      accessToken: accessTokenProvider)
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
