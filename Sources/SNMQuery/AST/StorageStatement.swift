/// `storage ...`: one request of the Storage API (spec: docs/storage-language.md). Paths are
/// values: a bare `bucket/some/path.jpg`, a string (`'my dog.jpg'`, `"avatars/${me}/a.png"`) or
/// a variable; `bucket/path` splits at the first `/`.
public enum StorageStatement: Sendable, Equatable {
  /// `storage buckets`
  case buckets
  /// `storage create bucket <name> [public] [limit <size>] [types <type>, ...]`
  case createBucket(name: ValueNode, isPublic: Bool, limit: ValueNode?, types: [ValueNode])
  /// `storage drop bucket <name>`
  case dropBucket(ValueNode)
  /// `storage empty bucket <name>`
  case emptyBucket(ValueNode)
  /// `storage ls <bucket>[/<folder>] [limit n] [offset n] [search 'x'] [order by <column> [desc]]`
  case list(StorageListing)
  /// `storage upload <file> to <bucket/path> [type 't'] [upsert] [cache <seconds>]`
  case upload(StorageUploadStatement)
  /// `storage download <bucket/path> [to <file>] [public]`
  case download(path: ValueNode, to: ValueNode?, isPublic: Bool)
  /// `storage mv <bucket/path> to <bucket/path>`
  case move(from: ValueNode, to: ValueNode)
  /// `storage cp <bucket/path> to <bucket/path>`
  case copy(from: ValueNode, to: ValueNode)
  /// `storage rm <bucket/path>, ...` (one bucket)
  case remove([ValueNode])
  /// `storage info <bucket/path>`
  case info(ValueNode)
  /// `storage exists <bucket/path>`
  case exists(ValueNode)
  /// `storage sign <bucket/path> expires <seconds> [download]`
  case sign(path: ValueNode, expires: ValueNode, download: Bool)
  /// `storage url <bucket/path> [download]`: the public URL, no request.
  case url(path: ValueNode, download: Bool)

  /// The values the statement uses (for checking variables).
  public var values: [ValueNode] {
    switch self {
    case .buckets: []
    case .createBucket(let name, _, let limit, let types):
      [name] + (limit.map { [$0] } ?? []) + types
    case .dropBucket(let name), .emptyBucket(let name): [name]
    case .list(let listing):
      [listing.path] + [listing.limit, listing.offset, listing.search].compactMap { $0 }
    case .upload(let upload):
      [upload.file, upload.path] + [upload.contentType, upload.cache].compactMap { $0 }
    case .download(let path, let to, _): [path] + (to.map { [$0] } ?? [])
    case .move(let from, let to), .copy(let from, let to): [from, to]
    case .remove(let paths): paths
    case .info(let path), .exists(let path), .url(let path, _): [path]
    case .sign(let path, let expires, _): [path, expires]
    }
  }

  /// Whether the statement sends a request (all but `storage url`).
  public var sendsRequest: Bool {
    if case .url = self { return false }
    return true
  }
}

/// `storage ls ...`
public struct StorageListing: Sendable, Equatable {
  /// `bucket` or `bucket/folder/`.
  public var path: ValueNode
  public var limit: ValueNode?
  public var offset: ValueNode?
  public var search: ValueNode?
  /// `name`, `updated_at`, `created_at` or `last_accessed_at`.
  public var sortColumn: String?
  public var descending: Bool = false
}

/// `storage upload ...`
public struct StorageUploadStatement: Sendable, Equatable {
  /// The file on this machine.
  public var file: ValueNode
  /// `bucket/path` it goes to.
  public var path: ValueNode
  public var contentType: ValueNode?
  public var upsert: Bool = false
  /// Seconds for `cache-control: max-age=...`.
  public var cache: ValueNode?
}
