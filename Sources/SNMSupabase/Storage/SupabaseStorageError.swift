/// Why a Storage chain could not become a request. Thrown before anything is sent.
///
/// ```swift
/// do { _ = try manager.from("avatars").setPath("../x").info().build() }
/// catch { print(error) }   // storage path '../x' has a '..' segment
/// ```
public enum SupabaseStorageError: Error, Sendable, Hashable {
  /// The bucket name is empty or has characters Storage refuses.
  case invalidBucket(String)
  /// The object path is empty, has a `.` or `..` segment or a control character.
  case invalidPath(String, reason: String)
  /// The file to upload cannot be read.
  case unreadableFile(String, reason: String)
  /// An option that does not fit (an expiry below 1 s, an unknown sort column, ...).
  case invalidOption(String)
}

extension SupabaseStorageError: CustomStringConvertible {
  /// One lowercase line saying what is wrong.
  public var description: String {
    switch self {
    case .invalidBucket(let name):
      name.isEmpty
        ? "storage needs a bucket name"
        : "bucket name '\(name)' is not one Storage takes (letters, digits and _!.*'() &$=@;:+,?-)"
    case .invalidPath(let path, let reason):
      "storage path '\(path)' \(reason)"
    case .unreadableFile(let path, let reason):
      "cannot read '\(path)': \(reason)"
    case .invalidOption(let reason):
      reason
    }
  }
}
