/// The pieces the gateway process is built from; the one place to plug a service in.
enum GatewayAssembly {
  /// The `/rest/v1` handler: snm's PostgREST (call `reloadSchemaCache` after migrations).
  static func restHandler() -> RESTGateway {
    RESTGateway()
  }

  /// The `/rest/v1` handler with its schema cache already loaded from `pool` (when the database
  /// answers; otherwise the first request loads it).
  static func restHandler(warming pool: PGPool) -> RESTGateway {
    let gateway = RESTGateway()
    gateway.warmUp(database: pool)
    return gateway
  }
}
