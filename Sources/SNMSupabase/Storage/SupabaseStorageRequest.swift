import Foundation
import SNMNetwork
import SNMWire

/// A built Storage request: the exact endpoint plus the chain that made it, so it can print
/// itself (curl, Swift, explain JSON) as the DB layer's requests do.
///
/// ```swift
/// let request = try remoteStorageManager.from("avatars").setPath("a/bori.jpg").info().build()
/// request.endpoint.url   // http://127.0.0.1:54321/storage/v1/object/info/avatars/a/bori.jpg
/// ```
public struct SupabaseStorageRequest: Sendable, Hashable, SNMRequestConvertible {
  /// What goes on the wire (without `apikey`, `Authorization`, `X-Client-Info`).
  public let endpoint: Endpoint
  public let operation: SupabaseStorageOperation
  /// The bucket the chain names (nil for `listBuckets`).
  public let bucket: String?
  /// The object's path inside the bucket, normalised (nil for bucket operations).
  public let path: String?
  /// The JSON body (what `endpoint.body` holds as bytes).
  public let body: JSONValue?
  /// The builder calls, in order.
  public let calls: [SupabaseStorageCall]
  /// The Storage API's base (`<project>/storage/v1`), which signed URLs are relative to.
  public let storageURL: String

  init(
    storageURL: String, bucket: String?, path: String?, operation: SupabaseStorageOperation,
    calls: [SupabaseStorageCall]
  ) throws(SupabaseStorageError) {
    self.storageURL = storageURL
    self.operation = operation
    self.calls = calls
    let plan = try Self.plan(bucket: bucket, path: path, operation: operation)
    self.bucket = plan.bucket
    self.path = plan.path
    self.body = plan.body
    var headers = plan.headers
    if plan.body != nil { headers["Content-Type"] = "application/json" }
    var endpoint = Endpoint(
      baseURL: storageURL, path: plan.target, method: plan.method, headers: headers,
      body: plan.body.map { Data($0.serializedBytes()) })
    if case .upload(let upload) = operation { endpoint.bodyFile = upload.file }
    if case .download(let download) = operation { endpoint.responseFile = download.destination }
    // Storage answers every operation but a download and `exists` (HEAD) with JSON: the
    // listings in arrays, the rest with an object.
    switch operation {
    case .download, .exists: break
    default: endpoint.answerBody = .required
    }
    endpoint.answerShape = Self.answerShape(operation)
    endpoint.effect = Self.effect(operation)
    self.endpoint = endpoint
  }

  /// The endpoint itself.
  public func asEndpoint() -> Endpoint { endpoint }

  /// The JSON Storage answers `operation` with (storage-api's routes, as supabase-js types them):
  /// buckets, a folder's entries and the removed objects in arrays; a bucket made, dropped or
  /// emptied, an upload, a move, a copy, an object's info and a signed URL as an object; nil
  /// for a download and `exists`, which carry no JSON.
  static func answerShape(_ operation: SupabaseStorageOperation) -> Endpoint.AnswerShape? {
    switch operation {
    case .listBuckets: .array(of: "buckets")
    case .list: .array(of: "the folder's entries")
    case .remove: .array(of: "the removed objects")
    case .info: .object("the object's info")
    case .createSignedURL: .object("the signed URL")
    case .createBucket, .deleteBucket, .emptyBucket, .upload, .move, .copy:
      .object("Storage's report of the write")
    case .download, .exists: nil
    }
  }

  /// What sending `operation` may do, by what it is, not its method: a listing (a POST) and a
  /// signed URL (a POST that writes nothing) read.
  static func effect(_ operation: SupabaseStorageOperation) -> Endpoint.Effect {
    switch operation {
    case .listBuckets, .list, .info, .exists, .download, .createSignedURL: .reads
    case .createBucket, .deleteBucket, .emptyBucket, .remove, .upload, .move, .copy: .writes
    }
  }

  /// The endpoint, with the file to upload checked first: a file that cannot be read is a
  /// ``SupabaseStorageError/unreadableFile(_:reason:)`` before anything is sent.
  public func sendableEndpoint() throws(SupabaseStorageError) -> Endpoint {
    // Opened without waiting and only as a regular file: a FIFO nobody writes held the upload
    // forever, and a device was said to be "not a regular file" only by the transfer.
    if let file = endpoint.bodyFile, let problem = RegularFile.problem(file) {
      throw .unreadableFile(file, reason: problem)
    }
    return endpoint
  }

  /// The exact URL sent.
  public var url: String { endpoint.url }

  struct Plan {
    var bucket: String?
    var path: String?
    var method: HTTPMethod
    var target: String
    var headers = HTTPHeaders()
    var body: JSONValue?
  }

  static func plan(
    bucket rawBucket: String?, path rawPath: String?, operation: SupabaseStorageOperation
  )
    throws(SupabaseStorageError) -> Plan
  {
    if case .listBuckets = operation {
      return Plan(method: .get, target: "/bucket")
    }
    let bucket = try SupabaseStoragePath.bucket(rawBucket)
    let encodedBucket = SupabaseStoragePath.encoded(bucket: bucket)
    func object() throws(SupabaseStorageError) -> (String, String) {
      let path = try SupabaseStoragePath.object(rawPath)
      return (path, SupabaseStoragePath.encoded(bucket: bucket, path: path))
    }
    switch operation {
    case .listBuckets:
      return Plan(method: .get, target: "/bucket")
    case .createBucket(let options):
      var body: JSONObject = ["id": .string(bucket), "name": .string(bucket)]
      body["public"] = .bool(options.isPublic)
      if let limit = options.fileSizeLimit {
        body["file_size_limit"] = try sizeLimit(limit)
      }
      if let types = options.allowedMimeTypes {
        body["allowed_mime_types"] = .array(types.map { .string($0) })
      }
      return Plan(bucket: bucket, method: .post, target: "/bucket", body: .object(body))
    case .deleteBucket:
      return Plan(bucket: bucket, method: .delete, target: "/bucket/" + encodedBucket)
    case .emptyBucket:
      return Plan(
        bucket: bucket, method: .post, target: "/bucket/\(encodedBucket)/empty", body: .object([:]))
    case .list(let options):
      guard ["name", "updated_at", "created_at", "last_accessed_at"].contains(options.sortColumn)
      else {
        throw .invalidOption(
          "storage listings sort by name, updated_at, created_at or last_accessed_at, not '\(options.sortColumn)'"
        )
      }
      guard options.limit >= 0, options.offset >= 0 else {
        throw .invalidOption("limit and offset cannot be negative")
      }
      var body: JSONObject = [
        "prefix": .string(try SupabaseStoragePath.folder(options.prefix)),
        "limit": .int(options.limit), "offset": .int(options.offset),
        "sortBy": [
          "column": .string(options.sortColumn),
          "order": .string(options.descending ? "desc" : "asc"),
        ],
      ]
      if let search = options.search { body["search"] = .string(search) }
      return Plan(
        bucket: bucket, method: .post, target: "/object/list/" + encodedBucket,
        body: .object(body))
    case .remove(let paths):
      guard !paths.isEmpty else { throw .invalidOption("storage rm needs at least one path") }
      var normalised: [JSONValue] = []
      for path in paths { normalised.append(.string(try SupabaseStoragePath.object(path))) }
      return Plan(
        bucket: bucket, method: .delete, target: "/object/" + encodedBucket,
        body: ["prefixes": .array(normalised)])
    case .upload(let upload):
      let (path, encoded) = try object()
      guard upload.cacheControl >= 0 else {
        throw .invalidOption("cache seconds cannot be negative")
      }
      var headers = HTTPHeaders()
      headers["x-upsert"] = upload.upsert ? "true" : "false"
      headers["cache-control"] = "max-age=\(upload.cacheControl)"
      headers["content-type"] = upload.contentType ?? StorageContentType.forName(path)
      return Plan(
        bucket: bucket, path: path, method: .post, target: "/object/" + encoded, headers: headers)
    case .download(let download):
      let (path, encoded) = try object()
      return Plan(
        bucket: bucket, path: path, method: .get,
        target: (download.isPublic ? "/object/public/" : "/object/") + encoded)
    case .info:
      let (path, encoded) = try object()
      return Plan(bucket: bucket, path: path, method: .get, target: "/object/info/" + encoded)
    case .exists:
      let (path, encoded) = try object()
      return Plan(bucket: bucket, path: path, method: .head, target: "/object/" + encoded)
    case .createSignedURL(let expiresIn, _):
      let (path, encoded) = try object()
      guard expiresIn >= 1 else {
        throw .invalidOption("a signed URL expires after 1 second or more, not \(expiresIn)")
      }
      return Plan(
        bucket: bucket, path: path, method: .post, target: "/object/sign/" + encoded,
        body: ["expiresIn": .int(expiresIn)])
    case .move(let destination, let destinationBucket),
      .copy(let destination, let destinationBucket):
      let (path, _) = try object()
      let target = try SupabaseStoragePath.object(destination)
      var body: JSONObject = [
        "bucketId": .string(bucket), "sourceKey": .string(path), "destinationKey": .string(target),
      ]
      if let destinationBucket {
        body["destinationBucket"] = .string(try SupabaseStoragePath.bucket(destinationBucket))
      }
      let isMove = if case .move = operation { true } else { false }
      return Plan(
        bucket: bucket, path: path, method: .post,
        target: isMove ? "/object/move" : "/object/copy", body: .object(body))
    }
  }

  /// A bucket size limit as Storage takes it: a whole number of bytes, or digits with
  /// `B`, `KB`, `MB` or `GB` (decimal units, as its `parseFileSizeToBytes`).
  static func sizeLimit(_ text: String) throws(SupabaseStorageError) -> JSONValue {
    if let bytes = Int(text), bytes >= 0 { return .int(bytes) }
    let upper = text.uppercased()
    for unit in ["GB", "MB", "KB", "B"] where upper.hasSuffix(unit) {
      let number = upper.dropLast(unit.count)
      if !number.isEmpty, Double(number) != nil,
        number.allSatisfy({ $0.isNumber || $0 == "." })
      {
        return .string(text)
      }
    }
    throw .invalidOption(
      "size limit '\(text)' is not bytes or a size such as 500KB, 5MB, 1GB")
  }
}
