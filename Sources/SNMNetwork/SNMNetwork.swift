/// The HTTP layer of snm's client side: endpoints, requests and the provider that sends them over
/// its two transports (plain sockets for `http://`, libcurl for `https://`). The wire format itself
/// (JSON, header fields, HTTP/1.1 framing) is SNMWire's.
public enum SNMNetwork {
  /// The version string sent in `X-Client-Info` and printed by `snm --version`.
  public static let version = "0.1.0"
}
