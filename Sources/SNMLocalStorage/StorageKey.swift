import SNMWire

/// The names Storage accepts for buckets and objects (its `isValidKey`, `isValidBucketName`),
/// plus what a path on disk would make dangerous: a NUL, an absolute path, `.` or `..` segments,
/// whatever percent-encoding brought them in (`%2e%2e`, `%00`). Objects are never stored under
/// their names, so these are refused to keep the answers the file backend gives. An object name
/// is at most 1,024 bytes (S3's limit); a name, prefix or path a request only looks up is
/// refused when no object could have it (a NUL, more than 1,024 bytes), before Postgres sees it.
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
    try lookup(name)
    if name.hasPrefix("/") { throw .invalidKey(name, "must be a relative path") }
    let segments = name.split(separator: "/", omittingEmptySubsequences: true)
    if segments.contains(where: { $0 == "." || $0 == ".." }) {
      throw .invalidKey(name, "contains dot path segment")
    }
    return name
  }

  /// The most bytes an object name has.
  static let maximumNameBytes = 1024

  /// A name, prefix or path a request looks objects up by: refused when no object could have it
  /// (a NUL, which Postgres's text refuses, or more than 1,024 bytes), whatever else it holds.
  ///
  /// - Throws: `StorageFailure.invalidKey`.
  static func lookup(_ name: String) throws(StorageFailure) {
    guard name.utf8.count <= maximumNameBytes else {
      throw .invalidKey(
        printable(String(name.prefix(64))) + "...",
        "is longer than \(maximumNameBytes) bytes")
    }
    guard !name.utf8.contains(0) else { throw .invalidKey(printable(name)) }
  }

  /// A text of a request (a search, a type) that Postgres must be able to hold: no NUL.
  ///
  /// - Throws: `StorageFailure.validation` naming `field`.
  static func text(_ value: String, field: String) throws(StorageFailure) {
    guard !value.utf8.contains(0) else {
      throw .validation("\(field) must not contain a NUL character")
    }
  }

  /// The deepest nesting metadata a request sets may have.
  static let maximumMetadataDepth = 100

  /// Refuses metadata a request sets (`x-metadata`, a form's `metadata`, a copy's) that jsonb
  /// could not hold or that is nested too deeply: a NUL anywhere, more than 100 levels (a few
  /// thousand overflowed the stack of whatever walked it next). Walked without recursion.
  ///
  /// - Throws: `StorageFailure.invalidRequest` naming `what`.
  static func checkMetadata(_ value: JSONValue, what: String) throws(StorageFailure) {
    var pending: [(JSONValue, Int)] = [(value, 1)]
    while let (item, depth) = pending.popLast() {
      switch item {
      case .string(let text):
        guard !text.utf8.contains(0) else {
          throw .invalidRequest("\(what) must not contain a NUL character")
        }
      case .array(let items):
        guard depth <= maximumMetadataDepth else {
          throw .invalidRequest("\(what) may be nested at most \(maximumMetadataDepth) levels deep")
        }
        pending += items.map { ($0, depth + 1) }
      case .object(let members):
        guard depth <= maximumMetadataDepth else {
          throw .invalidRequest("\(what) may be nested at most \(maximumMetadataDepth) levels deep")
        }
        guard !members.keys.contains(where: { $0.utf8.contains(0) }) else {
          throw .invalidRequest("\(what) must not contain a NUL character")
        }
        pending += members.values.map { ($0, depth + 1) }
      default:
        continue
      }
    }
  }

  /// A bucket name a request looks a bucket up by: refused when no bucket could have it (a NUL,
  /// more than 100 bytes).
  ///
  /// - Throws: `StorageFailure.invalidBucketName`.
  static func bucketLookup(_ name: String) throws(StorageFailure) {
    guard name.utf8.count < 101, !name.utf8.contains(0) else {
      throw .invalidBucketName(printable(String(name.prefix(100))))
    }
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

  /// The name with every character a terminal must not get raw (SNMWire's one walk,
  /// `VisibleTextLine`: controls, U+202E, tag characters) shown as `\u{1B}`, for a message.
  static func printable(_ text: String) -> String {
    VisibleTextLine.escaped(text)
  }
}
