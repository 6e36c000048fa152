import Foundation
import SNMWire

/// What the gateway needs of one `storage.objects` row: its id, the version naming its bytes on
/// disk, and the metadata Storage keeps (`eTag`, `size`, `mimetype`, `cacheControl`).
struct StorageObjectRow {
  var id: String
  var version: String
  var metadata: JSONValue

  /// Reads the columns of `StorageSQL.findObject` (id, version, metadata text).
  init?(_ row: [String?]) {
    guard row.count >= 3, let id = row[0] else { return nil }
    self.id = id
    version = row[1] ?? ""
    metadata = row[2].flatMap { try? JSONValue(parsing: $0) } ?? .null
  }

  var eTag: String? { metadata["eTag"]?.stringValue }
  var size: Int64 { Int64(metadata["size"]?.intValue ?? 0) }
  var mimetype: String { metadata["mimetype"]?.stringValue ?? "application/octet-stream" }
  var cacheControl: String { metadata["cacheControl"]?.stringValue ?? "no-cache" }
}

/// A bucket as the upload and download paths need it.
struct StorageBucketRow {
  var id: String
  var isPublic: Bool
  var fileSizeLimit: Int64?
  var allowedMimeTypes: [String]?

  /// Reads the columns of `StorageSQL.findBucket` (id, public, file_size_limit,
  /// allowed_mime_types as a Postgres array literal).
  init?(_ row: [String?]) {
    guard row.count >= 4, let id = row[0] else { return nil }
    self.id = id
    isPublic = row[1] == "t"
    fileSizeLimit = row[2].flatMap { Int64($0) }
    allowedMimeTypes = row[3].map(Self.parseTextArray)
  }

  /// Refuses an object of `size` bytes and type `type` that this bucket would not take as an
  /// upload named `name` (its size limit within the project's `globalLimit`, its MIME types): a
  /// copy or move lands here only as an upload could. A folder's placeholder has no type.
  func admit(size: Int64, type: String, name: String, globalLimit: Int64)
    throws(StorageFailure)
  {
    let placeholder = name.hasSuffix(".emptyFolderPlaceholder")
    let limit = placeholder ? 0 : min(globalLimit, fileSizeLimit ?? globalLimit)
    guard size <= limit else { throw .entityTooLarge() }
    if !placeholder { try Self.checkType(type, allowed: allowedMimeTypes ?? []) }
  }

  /// Storage's `validateMimeType`: `type` against a bucket's list (`image/*`, `text/plain`);
  /// an empty list takes any.
  static func checkType(_ type: String, allowed: [String]) throws(StorageFailure) {
    guard !allowed.isEmpty else { return }
    let requested = type.split(separator: "/", maxSplits: 1).map {
      $0.split(separator: ";")[0].trimmingCharacters(in: .whitespaces).lowercased()
    }
    guard requested.count == 2 else { throw .invalidMimeType(type) }
    for pattern in allowed {
      let parts = pattern.lowercased().split(separator: "/", maxSplits: 1).map(String.init)
      guard parts.count == 2, parts[0] == requested[0] else { continue }
      if parts[1] == "*" || parts[1] == requested[1] { return }
    }
    throw .invalidMimeType(type)
  }

  /// The elements of a one-dimensional text[] literal (`{image/*,"a b"}`).
  static func parseTextArray(_ literal: String) -> [String] {
    var items: [String] = []
    var current = ""
    var quoted = false
    var escaped = false
    var inItem = false
    for character in literal.dropFirst().dropLast() {
      if escaped {
        current.append(character)
        escaped = false
      } else if character == "\\" {
        escaped = true
      } else if character == "\"" {
        quoted.toggle()
        inItem = true
      } else if character == "," && !quoted {
        items.append(current)
        current = ""
        inItem = false
      } else {
        current.append(character)
        inItem = true
      }
    }
    if inItem || !items.isEmpty { items.append(current) }
    return items
  }
}
