import SNMWire

extension RequestAuth {
  /// The token of `Bearer <token>` (scheme in any case); `nil` for other schemes.
  package static func bearerToken(_ header: String) -> String? {
    // The usual header, `Bearer <token>` with one space and no space or tab around it: its
    // first and last bytes are printable ASCII, so neither end is a space character, and the
    // byte after the space is ASCII too, so nothing joins the space. The token is taken as it
    // is, without the characterwise trimming below (a tenth of a pk read's gateway work).
    let utf8 = header.utf8
    if utf8.count > 7, let first = utf8.first, let last = utf8.last,
      (0x21...0x7E).contains(first), (0x21...0x7E).contains(last)
    {
      let start = utf8.index(utf8.startIndex, offsetBy: 7)
      if (0x21...0x7E).contains(utf8[start]), Self.startsWithBearerScheme(utf8) {
        return String(Substring(utf8[start...]))
      }
    }
    return bearerTokenTrimmed(header)
  }

  /// `Bearer ` in any case at the start of `bytes` (compared byte by byte).
  private static func startsWithBearerScheme(_ bytes: String.UTF8View) -> Bool {
    var index = bytes.startIndex
    for expected in "bearer ".utf8 {
      guard index < bytes.endIndex else { return false }
      let byte = bytes[index]
      guard byte == expected || (expected != 0x20 && byte | 0x20 == expected) else { return false }
      index = bytes.index(after: index)
    }
    return true
  }

  /// `bearerToken` for a header with spaces or tabs to trim, or non-ASCII at its ends.
  private static func bearerTokenTrimmed(_ header: String) -> String? {
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
