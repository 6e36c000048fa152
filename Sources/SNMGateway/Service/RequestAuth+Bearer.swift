import SNMWire

extension RequestAuth {
  /// The token of `Bearer <token>` (scheme in any case); `nil` for other schemes.
  package static func bearerToken(_ header: String) -> String? {
    let trimmed = header.trimmingSpaces
    // The usual `Bearer <token>` with an ASCII token: compared as bytes, no lowercased copies.
    // (A space followed by a non-ASCII scalar may be one character with it: the general path.)
    let bytes = trimmed.utf8
    let scheme = "bearer ".utf8
    if bytes.count > scheme.count,
      zip(bytes, scheme).allSatisfy({ $0 == $1 || ($1 != 0x20 && $0 | 0x20 == $1) }),
      bytes[bytes.index(bytes.startIndex, offsetBy: scheme.count)] < 0x80
    {
      return Substring(bytes.dropFirst(6)).trimmingSpaces
    }
    guard trimmed.lowercased() == "bearer" || trimmed.lowercased().hasPrefix("bearer ") else {
      return nil
    }
    return String(trimmed.dropFirst(6)).trimmingSpaces
  }
}
