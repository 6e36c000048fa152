#if canImport(Glibc)
  import Glibc
#endif

extension StringProtocol {
  /// Whether the text holds a NUL byte, which PostgreSQL text and libpq's C strings cannot
  /// carry: one `memchr` over the UTF-8 bytes (a statement's SQL and parameters are checked on
  /// every request).
  ///
  /// ```swift
  /// "a\u{0}b".containsNUL   // true
  /// ```
  package var containsNUL: Bool {
    let found = utf8.withContiguousStorageIfAvailable { bytes in
      guard let base = bytes.baseAddress, bytes.count > 0 else { return false }
      return memchr(base, 0, bytes.count) != nil
    }
    return found ?? utf8.contains(0)
  }
}
