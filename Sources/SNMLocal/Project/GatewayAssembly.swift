/// The pieces the gateway process is built from; the one place to plug a service in.
enum GatewayAssembly {
  /// The `/rest/v1` handler. The REST gateway replaces `RESTNotImplemented()` here.
  static func restHandler() -> any RESTHandling {
    RESTNotImplemented()
  }
}
