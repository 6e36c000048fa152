import SNMWire

/// A Storage API request, matched to its route as Supabase Storage's router matches them (static
/// segments before a bucket name): the path after `/storage/v1`, its wildcard part
/// percent-decoded as Fastify decodes it.
///
/// ```swift
/// StorageRoute(method: "GET", path: "/storage/v1/object/info/avatars/a%20b.png")
/// // .objectInfo(bucket: "avatars", name: "a b.png", access: .any)
/// ```
enum StorageRoute: Equatable {
  /// Who may read an object through a download or info route.
  enum Access: Equatable {
    /// `/object/<bucket>/...`: a bad token reads as anon.
    case any
    /// `/object/authenticated/...`: a token is required.
    case authenticated
    /// `/object/public/...`: a public bucket, no token.
    case `public`
  }

  case listBuckets
  case getBucket(String)
  case createBucket
  case updateBucket(String)
  case deleteBucket(String)
  case emptyBucket(String)
  case upload(bucket: String, name: String, upsert: Bool)
  case download(bucket: String, name: String, access: Access)
  case head(bucket: String, name: String, access: Access)
  case info(bucket: String, name: String, access: Access)
  case signedDownload(bucket: String, name: String)
  case sign(bucket: String, name: String)
  case signMany(bucket: String)
  case signUpload(bucket: String, name: String)
  case uploadSigned(bucket: String, name: String)
  case list(bucket: String)
  case listV2(bucket: String)
  case removeMany(bucket: String)
  case remove(bucket: String, name: String)
  case move
  case copy
  case notFound

  /// The operation name policies read through `storage.operation()`.
  var operation: String {
    switch self {
    case .listBuckets: "storage.bucket.list"
    case .getBucket: "storage.bucket.get"
    case .createBucket: "storage.bucket.create"
    case .updateBucket: "storage.bucket.update"
    case .deleteBucket: "storage.bucket.delete"
    case .emptyBucket: "storage.bucket.empty"
    case .upload(_, _, let upsert):
      upsert ? "storage.object.upload_update" : "storage.object.upload"
    case .download(_, _, .public): "storage.object.get_public"
    case .download: "storage.object.get_authenticated"
    case .head(_, _, .public), .info(_, _, .public): "storage.object.info_public"
    case .head: "object.head_authenticated_info"
    case .info: "object.get_authenticated_info"
    case .signedDownload: "storage.object.get_signed"
    case .sign: "storage.object.sign"
    case .signMany: "storage.object.sign_many"
    case .signUpload: "storage.object.sign_upload_url"
    case .uploadSigned: "storage.object.upload_signed"
    case .list: "storage.object.list"
    case .listV2: "storage.object.list_v2"
    case .removeMany: "storage.object.delete_many"
    case .remove: "storage.object.delete"
    case .move: "storage.object.move"
    case .copy: "storage.object.copy"
    case .notFound: ""
    }
  }

  /// The bucket and object name the route's path names, if it names them.
  var names: (bucket: String?, name: String?) {
    switch self {
    case .getBucket(let bucket), .updateBucket(let bucket), .deleteBucket(let bucket),
      .emptyBucket(let bucket), .signMany(let bucket), .list(let bucket), .listV2(let bucket),
      .removeMany(let bucket):
      (bucket, nil)
    case .upload(let bucket, let name, _), .download(let bucket, let name, _),
      .head(let bucket, let name, _), .info(let bucket, let name, _),
      .signedDownload(let bucket, let name), .sign(let bucket, let name),
      .signUpload(let bucket, let name), .uploadSigned(let bucket, let name),
      .remove(let bucket, let name):
      (bucket, name)
    case .listBuckets, .createBucket, .move, .copy, .notFound:
      (nil, nil)
    }
  }

  /// Whether the route reads its request body as a stream to disk (uploads).
  var streamsBody: Bool {
    switch self {
    case .upload, .uploadSigned: true
    default: false
    }
  }

  /// Whether the route answers without a token (public and signed URLs).
  var isOpen: Bool {
    switch self {
    case .download(_, _, .public), .head(_, _, .public), .info(_, _, .public), .signedDownload,
      .uploadSigned:
      true
    default: false
    }
  }

  /// Whether a token that does not verify is read as anon rather than refused.
  var allowsInvalidToken: Bool {
    switch self {
    case .download(_, _, .any), .head(_, _, .any), .info(_, _, .any): true
    default: isOpen
    }
  }

  init(method: String, path: String) {
    guard path.hasPrefix("/storage/v1/") else {
      self = .notFound
      return
    }
    let rest = path.dropFirst("/storage/v1/".count)
    let raw = rest.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
    self = Self.match(method: method.uppercased(), raw)
  }

  static func decoded(_ segment: String) -> String { PercentEncoding.decode(segment) }

  /// The wildcard: the segments from `index` on, joined and decoded.
  static func tail(_ segments: [String], from index: Int) -> String? {
    guard index < segments.count else { return nil }
    return decoded(segments[index...].joined(separator: "/"))
  }

  static func match(method: String, _ segments: [String]) -> StorageRoute {
    guard let first = segments.first else { return .notFound }
    switch first {
    case "bucket":
      return bucketRoute(method: method, Array(segments.dropFirst()))
    case "object":
      return objectRoute(method: method, Array(segments.dropFirst()))
    default:
      return .notFound
    }
  }

  static func bucketRoute(method: String, _ segments: [String]) -> StorageRoute {
    let parts = segments.filter { !$0.isEmpty }
    switch (method, parts.count) {
    case ("GET", 0): return .listBuckets
    case ("POST", 0): return .createBucket
    case ("GET", 1): return .getBucket(decoded(parts[0]))
    case ("PUT", 1): return .updateBucket(decoded(parts[0]))
    case ("DELETE", 1): return .deleteBucket(decoded(parts[0]))
    case ("POST", 2) where parts[1] == "empty": return .emptyBucket(decoded(parts[0]))
    default: return .notFound
    }
  }

  static func objectRoute(method: String, _ segments: [String]) -> StorageRoute {
    guard let head = segments.first else { return .notFound }
    func named(_ index: Int) -> (String, String)? {
      guard index < segments.count, !segments[index].isEmpty,
        let name = tail(segments, from: index + 1)
      else { return nil }
      return (decoded(segments[index]), name)
    }
    func access(_ segment: String) -> Access? {
      switch segment {
      case "public": .public
      case "authenticated": .authenticated
      default: nil
      }
    }
    switch (method, head) {
    case ("POST", "move") where segments.count == 1: return .move
    case ("POST", "copy") where segments.count == 1: return .copy
    case ("POST", "list") where segments.count == 2: return .list(bucket: decoded(segments[1]))
    case ("POST", "list-v2") where segments.count == 2: return .listV2(bucket: decoded(segments[1]))
    case ("POST", "sign") where segments.count == 2: return .signMany(bucket: decoded(segments[1]))
    case ("POST", "sign"):
      if let (bucket, name) = named(1) { return .sign(bucket: bucket, name: name) }
      return .notFound
    case ("GET", "sign"):
      if let (bucket, name) = named(1) { return .signedDownload(bucket: bucket, name: name) }
      return .notFound
    case ("POST", "upload"), ("PUT", "upload"):
      guard segments.count > 1, segments[1] == "sign", let (bucket, name) = named(2) else {
        return method == "POST" ? upload(segments, upsert: false) : upload(segments, upsert: true)
      }
      return method == "POST"
        ? .signUpload(bucket: bucket, name: name) : .uploadSigned(bucket: bucket, name: name)
    case ("GET", "info"):
      if segments.count > 1, let kind = access(segments[1]), let (bucket, name) = named(2) {
        return .info(bucket: bucket, name: name, access: kind)
      }
      if let (bucket, name) = named(1) { return .info(bucket: bucket, name: name, access: .any) }
      return .notFound
    case ("GET", _), ("HEAD", _):
      let isGet = method == "GET"
      if let kind = access(head), let (bucket, name) = named(1) {
        return isGet
          ? .download(bucket: bucket, name: name, access: kind)
          : .head(bucket: bucket, name: name, access: kind)
      }
      if let (bucket, name) = named(0) {
        return isGet
          ? .download(bucket: bucket, name: name, access: .any)
          : .head(bucket: bucket, name: name, access: .any)
      }
      return .notFound
    case ("POST", _):
      return upload(segments, upsert: false)
    case ("PUT", _):
      return upload(segments, upsert: true)
    case ("DELETE", _):
      if segments.count == 1 { return .removeMany(bucket: decoded(head)) }
      if let (bucket, name) = named(0) { return .remove(bucket: bucket, name: name) }
      return .notFound
    default:
      return .notFound
    }
  }

  static func upload(_ segments: [String], upsert: Bool) -> StorageRoute {
    guard segments.count > 1, !segments[0].isEmpty, let name = tail(segments, from: 1) else {
      return .notFound
    }
    return .upload(bucket: decoded(segments[0]), name: name, upsert: upsert)
  }
}
