/// The local Supabase-compatible project: a Postgres cluster plus snm's REST, Auth and Storage gateway.
///
/// ```swift
/// // main.swift, when no project is configured:
/// let endpoint = try LocalProject.ensureRunning()     // default dir, port 54321
/// endpoint.url        // "http://127.0.0.1:54321"
/// endpoint.apiKey      // the publishable key (sb_publishable_...), as a new hosted project hands out
/// ```
/// Throws `LocalProjectError` (`exitCode` 3 when Postgres or the gateway cannot be brought up).
public enum LocalProject {
  /// URL and client key of a running project.
  public struct Endpoint: Sendable, Equatable {
    public var url: String
    /// The publishable key (role anon).
    public var apiKey: String
    /// The secret key (role service_role), for `admin ...`, `inbox` and `as service`.
    public var serviceKey: String
    /// The cluster's superuser over its unix socket (`postgresql://postgres@/postgres?host=...`).
    public var databaseURL: String = ""
    /// The legacy anon and service_role JWTs: the same project's other keys (a session signed in
    /// with one is still this project's under the publishable key).
    public var legacyKeys: [String] = []
  }

  /// Starts the project (creating it on first use) unless it already runs; returns how to reach it.
  public static func ensureRunning(
    _ options: LocalProjectOptions = LocalProjectOptions()
  ) throws(LocalProjectError) -> Endpoint {
    let status = try LocalProjectController(options: options).start()
    return Endpoint(
      url: status.url, apiKey: status.publishableKey, serviceKey: status.secretKey,
      databaseURL: status.databaseURL, legacyKeys: [status.anonKey, status.serviceRoleKey])
  }

  /// The project's URL and keys when it was ever made, running or not; nothing is started or
  /// reached (`snm check` finds the schema cached for it). Nil when it was never made.
  public static func madeEndpoint(
    _ options: LocalProjectOptions = LocalProjectOptions()
  ) -> Endpoint? {
    guard let status = try? LocalProjectController(options: options).currentStatus() else {
      return nil
    }
    return Endpoint(
      url: status.url, apiKey: status.publishableKey, serviceKey: status.secretKey,
      databaseURL: status.databaseURL, legacyKeys: [status.anonKey, status.serviceRoleKey])
  }
}
