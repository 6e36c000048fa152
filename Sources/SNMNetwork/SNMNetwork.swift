/// The HTTP layer of snm's client side: endpoints, requests, the provider over
/// its two transports (plain sockets for `http://`, libcurl for `https://`) and `JSONValue`.
public enum SNMNetwork {
  /// The version string sent in `X-Client-Info` and printed by `snm --version`.
  public static let version = "0.1.0"
}
