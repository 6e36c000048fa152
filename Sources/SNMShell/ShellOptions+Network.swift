import Foundation
import SNMNetwork
import SNMSupabase

extension ShellOptions {
  /// How requests to a project with `key` go: the options' timeout (30 s unless given) and the CA
  /// certificates to trust for `https://` (`--cacert`, else `SSL_CERT_FILE`, else the system's).
  ///
  /// ```swift
  /// let provider = SNMNetworkProvider(configuration: options.networkConfiguration(key: key))
  /// ```
  public func networkConfiguration(
    key: String, environment: [String: String] = ProcessEnvironment.current
  ) -> SNMNetworkProvider.Configuration {
    let fromEnvironment = environment["SSL_CERT_FILE"].flatMap { $0.isEmpty ? nil : $0 }
    return SNMNetworkProvider.Configuration(
      apiKey: key, timeout: timeout ?? 30,
      certificateAuthorities: caCertificates ?? fromEnvironment)
  }
}
