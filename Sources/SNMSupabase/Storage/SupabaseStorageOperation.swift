/// What a Storage chain does, and so which request it sends.
///
/// | operation | request |
/// |---|---|
/// | `listBuckets` | GET `/storage/v1/bucket` |
/// | `createBucket` | POST `/storage/v1/bucket` |
/// | `deleteBucket` | DELETE `/storage/v1/bucket/<bucket>` |
/// | `emptyBucket` | POST `/storage/v1/bucket/<bucket>/empty` |
/// | `list` | POST `/storage/v1/object/list/<bucket>` |
/// | `remove` | DELETE `/storage/v1/object/<bucket>` with `prefixes` |
/// | `upload` | POST `/storage/v1/object/<bucket>/<path>` (`x-upsert`, `cache-control`, type) |
/// | `download` | GET `/storage/v1/object/<bucket>/<path>` (`public` buckets: `/object/public/...`) |
/// | `info` | GET `/storage/v1/object/info/<bucket>/<path>` |
/// | `exists` | HEAD `/storage/v1/object/<bucket>/<path>` |
/// | `createSignedURL` | POST `/storage/v1/object/sign/<bucket>/<path>` |
/// | `move`, `copy` | POST `/storage/v1/object/move`, `/object/copy` |
public enum SupabaseStorageOperation: Sendable, Hashable {
  case listBuckets
  case createBucket(SupabaseStorageBucketOptions)
  case deleteBucket
  case emptyBucket
  case list(SupabaseStorageListOptions)
  case remove(paths: [String])
  case upload(SupabaseStorageUpload)
  case download(SupabaseStorageDownload)
  case info
  case exists
  case createSignedURL(expiresIn: Int, download: SupabaseStorageDownloadName?)
  case move(to: String, bucket: String?)
  case copy(to: String, bucket: String?)

  /// The manager or builder call that starts this operation, as Swift (`listBuckets()`).
  public var swiftName: String {
    switch self {
    case .listBuckets: "listBuckets"
    case .createBucket: "createBucket"
    case .deleteBucket: "deleteBucket"
    case .emptyBucket: "emptyBucket"
    case .list: "list"
    case .remove: "remove"
    case .upload: "upload"
    case .download: "download"
    case .info: "info"
    case .exists: "exists"
    case .createSignedURL: "createSignedURL"
    case .move: "move"
    case .copy: "copy"
    }
  }
}

/// A new bucket's settings, as `storage create bucket` takes them.
///
/// ```swift
/// SupabaseStorageBucketOptions(isPublic: true, fileSizeLimit: "5MB", allowedMimeTypes: ["image/*"])
/// ```
public struct SupabaseStorageBucketOptions: Sendable, Hashable {
  public var isPublic: Bool
  /// Bytes as a number (`5242880`) or with a unit as Storage parses it (`5MB`, `500KB`, `1GB`).
  public var fileSizeLimit: String?
  /// MIME types objects may have (`image/*`, `image/png`); nil takes any.
  public var allowedMimeTypes: [String]?

  public init(
    isPublic: Bool = false, fileSizeLimit: String? = nil, allowedMimeTypes: [String]? = nil
  ) {
    self.isPublic = isPublic
    self.fileSizeLimit = fileSizeLimit
    self.allowedMimeTypes = allowedMimeTypes
  }
}

/// How a listing is paged and sorted (Storage's defaults: 100 entries by name ascending).
public struct SupabaseStorageListOptions: Sendable, Hashable {
  /// The folder to list (`dogs/`), `""` for the bucket's top.
  public var prefix: String
  public var limit: Int
  public var offset: Int
  /// Only entries whose name starts with this (case-insensitive).
  public var search: String?
  /// `name`, `updated_at`, `created_at` or `last_accessed_at`.
  public var sortColumn: String
  public var descending: Bool

  public init(
    prefix: String = "", limit: Int = 100, offset: Int = 0, search: String? = nil,
    sortColumn: String = "name", descending: Bool = false
  ) {
    self.prefix = prefix
    self.limit = limit
    self.offset = offset
    self.search = search
    self.sortColumn = sortColumn
    self.descending = descending
  }
}

/// The file to upload and how: the bytes stream from `file` on disk, never whole in memory.
public struct SupabaseStorageUpload: Sendable, Hashable {
  /// A path on this machine.
  public var file: String
  /// The object's MIME type; nil takes it from the object name's extension.
  public var contentType: String?
  /// Replace an object already at the path (`x-upsert: true`); else that is a 409.
  public var upsert: Bool
  /// Seconds a cache may keep the object (`cache-control: max-age=...`), 3600 by default.
  public var cacheControl: Int

  public init(
    file: String, contentType: String? = nil, upsert: Bool = false, cacheControl: Int = 3600
  ) {
    self.file = file
    self.contentType = contentType
    self.upsert = upsert
    self.cacheControl = cacheControl
  }
}

/// Where a download goes: a file on disk (streamed there, written atomically), or the answer.
public struct SupabaseStorageDownload: Sendable, Hashable {
  /// A path on this machine, or nil to keep the bytes in the answer.
  public var destination: String?
  /// Read through `/object/public/...` (a public bucket, no token needed).
  public var isPublic: Bool

  public init(destination: String? = nil, isPublic: Bool = false) {
    self.destination = destination
    self.isPublic = isPublic
  }
}

/// A signed or public URL that downloads as an attachment: with the object's own name, or
/// another.
public enum SupabaseStorageDownloadName: Sendable, Hashable {
  case originalName
  case named(String)

  /// The `download` query value: empty for the original name.
  public var queryValue: String {
    switch self {
    case .originalName: ""
    case .named(let name): name
    }
  }
}
