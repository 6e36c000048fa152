/// Which way a Phoenix message travels: the binary push and user-broadcast kinds and the v1
/// fields differ between a client's messages and a server's.
public enum PhoenixDirection: Sendable, Hashable {
  /// What a client sends.
  case toServer
  /// What a server sends.
  case toClient
}
