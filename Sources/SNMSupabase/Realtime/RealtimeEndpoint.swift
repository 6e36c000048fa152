import SNMWire

/// Where a project's Realtime socket is: `ws(s)://<host>/realtime/v1/websocket?apikey=...&vsn=`.
public enum RealtimeEndpoint {
  /// The protocol version snm speaks (Phoenix v2: arrays, binary broadcasts).
  public static let version = "2.0.0"

  /// The socket URL for a project URL (`http` becomes `ws`, `https` `wss`); `apikey` nil leaves
  /// the key out (for `explain`).
  public static func socketURL(projectURL: String, apikey: String?) -> String {
    var base = projectURL
    while base.hasSuffix("/") { base.removeLast() }
    if base.hasPrefix("https://") {
      base = "wss://" + base.dropFirst("https://".count)
    } else if base.hasPrefix("http://") {
      base = "ws://" + base.dropFirst("http://".count)
    }
    var url = base + "/realtime/v1/websocket?"
    if let apikey { url += "apikey=" + PercentEncoding.encode(apikey) + "&" }
    return url + "vsn=" + version
  }
}
