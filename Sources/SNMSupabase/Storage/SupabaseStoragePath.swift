import SNMNetwork

/// Checks and encodes bucket names and object paths as the official clients send them.
///
/// ```swift
/// try SupabaseStoragePath.object("/dogs//bori.jpg")          // "dogs/bori.jpg"
/// SupabaseStoragePath.encoded(bucket: "avatars", path: "my dog.jpg")   // "avatars/my%20dog.jpg"
/// try SupabaseStoragePath.object("dogs/../x")                // throws .invalidPath
/// ```
public enum SupabaseStoragePath {
  /// A bucket name Storage accepts: 1-100 characters of `A-Z a-z 0-9 _ ! . * ' ( ) space & $ = @
  /// ; : + , ? -` (its `isValidBucketName`).
  public static func bucket(_ name: String?) throws(SupabaseStorageError) -> String {
    guard let name, !name.isEmpty, name.count <= 100,
      name.unicodeScalars.allSatisfy({ bucketCharacters.contains($0) })
    else { throw .invalidBucket(name ?? "") }
    return name
  }

  /// An object path with leading, trailing and repeated `/` dropped (as supabase-swift's
  /// `_removeEmptyFolders`); refused when empty, with a `.` or `..` segment, or with a control
  /// character (NUL included).
  public static func object(_ path: String?) throws(SupabaseStorageError) -> String {
    let original = path ?? ""
    if let bad = original.unicodeScalars.first(where: { $0.value < 0x20 || $0.value == 0x7f }) {
      throw .invalidPath(
        original, reason: "has a control character (U+\(String(bad.value, radix: 16)))")
    }
    let segments = original.split(separator: "/", omittingEmptySubsequences: true)
    guard !segments.isEmpty else { throw .invalidPath(original, reason: "is empty") }
    if let dots = segments.first(where: { $0 == "." || $0 == ".." }) {
      throw .invalidPath(original, reason: "has a '\(dots)' segment")
    }
    return segments.joined(separator: "/")
  }

  /// A listing prefix: `""` or a folder path ending in `/`.
  public static func folder(_ prefix: String) throws(SupabaseStorageError) -> String {
    if prefix.allSatisfy({ $0 == "/" }) { return "" }
    return try object(prefix) + "/"
  }

  /// `bucket/path` for a URL: each segment percent-encoded (every byte outside
  /// `A-Z a-z 0-9 - . _ ~`), the slashes between them kept.
  public static func encoded(bucket: String, path: String? = nil) -> String {
    var text = Endpoint.encodePathSegment(bucket)
    if let path {
      text +=
        "/"
        + path.split(separator: "/").map { Endpoint.encodePathSegment(String($0)) }
        .joined(separator: "/")
    }
    return text
  }

  static let bucketCharacters: Set<Unicode.Scalar> = Set(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_!.*'() &$=@;:+,?-"
      .unicodeScalars)
}
