/// The pieces the gateway process is built from; the one place to plug a service in.
enum GatewayAssembly {
  /// The `/rest/v1` handler: snm's PostgREST (call `reloadSchemaCache` after migrations).
  static func restHandler() -> RESTGateway {
    RESTGateway()
  }
}
