/// The Phoenix serializer a socket speaks, chosen by the `vsn` query parameter: 1.0.0 sends JSON
/// objects, 2.0.0 JSON arrays and binary frames (Phoenix matches `~> 1.0.0` and `~> 2.0.0`).
///
/// ```swift
/// PhoenixVersion(vsn: "2.0.0")   // .v2
/// PhoenixVersion(vsn: nil)       // .v1: a socket without vsn speaks 1.0.0
/// PhoenixVersion(vsn: "3.0.0")   // nil
/// ```
public enum PhoenixVersion: String, Sendable, Hashable {
  case v1 = "1.0.0"
  case v2 = "2.0.0"

  /// The version a `vsn` asks for (1.0.x or 2.0.x; none is 1.0.0), or nil for any other.
  public init?(vsn: String?) {
    guard let vsn else {
      self = .v1
      return
    }
    let parts = vsn.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 3,
      parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCIIDigitCharacter) })
    else { return nil }
    switch (parts[0], parts[1]) {
    case ("1", "0"): self = .v1
    case ("2", "0"): self = .v2
    default: return nil
    }
  }
}

extension Character {
  fileprivate var isASCIIDigitCharacter: Bool { isASCII && isNumber }
}
