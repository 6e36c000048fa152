/// The names Storage accepts for buckets and objects (its `isValidKey`, `isValidBucketName`),
/// plus what a path on disk would make dangerous: a NUL, an absolute path, `.` or `..` segments,
/// whatever percent-encoding brought them in (`%2e%2e`, `%00`). Objects are never stored under
/// their names, so these are refused to keep the answers the file backend gives.
///
/// ```swift
/// try StorageKey.object("dogs/bori.jpg")   // "dogs/bori.jpg"
/// try StorageKey.object("../etc/passwd")   // throws InvalidKey
/// ```
enum StorageKey {
  /// Characters of an S3-safe key (and the ones Storage handles itself).
  static let keyCharacters: Set<UInt8> = Set(
    Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_/!.*'() &$=@;:+,?-".utf8))

  /// An object name, already percent-decoded.
  ///
  /// - Throws: `StorageFailure.invalidKey`.
  static func object(_ name: String) throws(StorageFailure) -> String {
    guard !name.isEmpty, name.utf8.allSatisfy({ keyCharacters.contains($0) }) else {
      throw .invalidKey(printable(name))
    }
    if name.hasPrefix("/") { throw .invalidKey(name, "must be a relative path") }
    let segments = name.split(separator: "/", omittingEmptySubsequences: true)
    if segments.contains(where: { $0 == "." || $0 == ".." }) {
      throw .invalidKey(name, "contains dot path segment")
    }
    return name
  }

  /// A bucket name: 1 to 100 characters of the key set without `/`.
  ///
  /// - Throws: `StorageFailure.invalidBucketName`.
  static func bucket(_ name: String) throws(StorageFailure) -> String {
    guard !name.isEmpty, name.utf8.count < 101,
      name.utf8.allSatisfy({ $0 != UInt8(ascii: "/") && keyCharacters.contains($0) })
    else { throw .invalidBucketName(printable(name)) }
    return name
  }

  /// The name with control characters shown as `\u{..}`, for a message.
  static func printable(_ text: String) -> String {
    var result = ""
    for scalar in text.unicodeScalars {
      if scalar.value < 0x20 || scalar.value == 0x7f {
        result += "\\u{" + String(scalar.value, radix: 16) + "}"
      } else {
        result.unicodeScalars.append(scalar)
      }
    }
    return result
  }
}
