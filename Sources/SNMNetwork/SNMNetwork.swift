/// The HTTP layer of snm's client side: endpoints, requests, the URLSession provider and `JSONValue`.
public enum SNMNetwork {
  /// The version string sent in `X-Client-Info` and printed by `snm --version`.
  public static let version = "0.1.0"
}
