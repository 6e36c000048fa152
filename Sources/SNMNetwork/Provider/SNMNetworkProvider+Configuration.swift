import Foundation

extension SNMNetworkProvider {
  /// How the provider connects and what it adds to each request.
  public struct Configuration: Sendable {
    /// Sent as `apikey`, and as the bearer token when no access token is given (unless it is a
    /// new-format `sb_...` key, which is not a JWT). Never printed.
    public var apiKey: String?
    /// `X-Client-Info` value.
    public var clientInfo: String
    /// Seconds a request may take in total before it fails with `.timedOut`.
    public var timeout: TimeInterval
    /// Connections kept open per host.
    public var maximumConnectionsPerHost: Int
    /// The largest answer body accepted (``TransportRequest/defaultMaximumBodyBytes``).
    public var maximumBodyBytes: Int
    /// A PEM file of CA certificates to trust for `https://` (`--cacert`, `SSL_CERT_FILE`); nil
    /// for the system's.
    public var certificateAuthorities: String?

    public init(
      apiKey: String? = nil, clientInfo: String = "snm/\(SNMNetwork.version)",
      timeout: TimeInterval = 60, maximumConnectionsPerHost: Int = 6,
      maximumBodyBytes: Int = TransportRequest.defaultMaximumBodyBytes,
      certificateAuthorities: String? = nil
    ) {
      self.apiKey = apiKey
      self.clientInfo = clientInfo
      self.timeout = timeout
      self.maximumConnectionsPerHost = maximumConnectionsPerHost
      self.maximumBodyBytes = maximumBodyBytes
      self.certificateAuthorities = certificateAuthorities
    }
  }

}

extension SNMNetworkProvider.Configuration: CustomStringConvertible, CustomDebugStringConvertible,
  CustomReflectable
{
  /// The settings with the API key left out.
  public var description: String {
    "Configuration(apiKey: \(apiKey == nil ? "nil" : "<redacted>"), clientInfo: \(clientInfo), "
      + "timeout: \(timeout), maximumConnectionsPerHost: \(maximumConnectionsPerHost))"
  }

  public var debugDescription: String { description }

  /// What `dump` shows: the key left out.
  public var customMirror: Mirror {
    Mirror(
      self,
      children: [
        "apiKey": apiKey == nil ? "nil" : "<redacted>", "clientInfo": clientInfo,
        "timeout": timeout,
        "maximumConnectionsPerHost": maximumConnectionsPerHost,
      ])
  }
}
