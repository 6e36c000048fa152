import Foundation
import SNMGateway
import SNMWire

#if canImport(Glibc)
  import Glibc
#endif

extension StorageGateway {
  /// The bucket, read as Storage's superuser; nil when there is none.
  func findBucket(_ id: String, route: StorageRoute) throws(StorageFailure) -> StorageBucketRow? {
    try transaction(StorageCaller.superuser, route) { tx in
      try tx.execute(StorageSQL.findBucket, [id]).rows.first.flatMap(StorageBucketRow.init)
    }
  }

  /// The object, read as `auth` (RLS decides what the caller may see).
  func findObject(_ bucket: String, _ name: String, as auth: RequestAuth, route: StorageRoute)
    throws(StorageFailure) -> StorageObjectRow
  {
    let row = try transaction(auth, route) { tx in
      try tx.execute(StorageSQL.findObject, [bucket, name]).rows.first.flatMap(
        StorageObjectRow.init)
    }
    guard let row else { throw .noSuchKey(name) }
    return row
  }

  /// The bucket for a read: a caller without a token reaches only public ones (as Storage's
  /// "not authenticated flow"), and `.public` routes only public ones.
  func readableBucket(
    _ bucketID: String, access: StorageRoute.Access, caller: StorageCaller, route: StorageRoute
  ) throws(StorageFailure) -> StorageBucketRow {
    _ = try StorageKey.bucket(bucketID)
    guard let bucket = try findBucket(bucketID, route: route) else {
      throw .noSuchBucket(bucketID)
    }
    if access == .public || !caller.isAuthenticated, !bucket.isPublic {
      throw .noSuchBucket(bucketID)
    }
    return bucket
  }

  /// GET /object/[authenticated/|public/]:bucket/*: the bytes, streamed from disk with the
  /// headers Storage's asset renderer sets (ranges, conditional requests, `download`).
  func download(
    _ bucketID: String, _ rawName: String, access: StorageRoute.Access, request: HTTPRequest,
    caller: StorageCaller
  ) throws(StorageFailure) -> HTTPResponse {
    let route = StorageRoute.download(bucket: bucketID, name: rawName, access: access)
    let bucket = try readableBucket(bucketID, access: access, caller: caller, route: route)
    let name = try StorageKey.object(rawName)
    let auth = bucket.isPublic ? StorageCaller.superuser : caller.auth
    let object = try findObject(bucketID, name, as: auth, route: route)
    return try render(object, request: request, expires: nil)
  }

  /// GET /object/sign/:bucket/*?token=: a signed URL's download, checked against its token.
  func signedDownload(_ bucketID: String, _ rawName: String, request: HTTPRequest)
    throws(StorageFailure) -> HTTPResponse
  {
    let route = StorageRoute.signedDownload(bucket: bucketID, name: rawName)
    guard let token = request.queryValue("token") else {
      throw .validation("querystring must have required property 'token'")
    }
    let claims = try verifySignedToken(token, bucket: bucketID, name: rawName, scope: "download")
    let name = try StorageKey.object(rawName)
    let object = try findObject(bucketID, name, as: StorageCaller.superuser, route: route)
    let expires = claims["exp"]?.doubleValue.map { HTTPDate.format(Int($0)) }
    return try render(object, request: request, expires: expires)
  }

  /// The object's bytes as Storage's asset renderer answers them.
  func render(_ object: StorageObjectRow, request: HTTPRequest, expires: String?)
    throws(StorageFailure) -> HTTPResponse
  {
    guard let fd = files.openForReading(version: object.version) else {
      var headers = HTTPHeaders()
      headers["Cache-Control"] = "no-store"
      return .json(
        status: 400,
        .object([
          .init("error", .string("Not found")),
          .init("message", .string("The resource was not found")),
          .init("statusCode", .string("404")), .init("code", .string("NoSuchKey")),
        ]), headers: headers)
    }
    var info = stat()
    fstat(fd, &info)
    let size = Int64(info.st_size)
    let modified = Int(info.st_mtim.tv_sec)
    let eTag = object.eTag ?? "\"\(String(modified, radix: 16))-\(String(size, radix: 16))\""
    var headers = HTTPHeaders()
    headers["Accept-Ranges"] = "bytes"
    headers["Content-Type"] =
      object.mimetype.contains("text/html") ? "text/plain" : object.mimetype
    headers["ETag"] = eTag
    headers["X-Robots-Tag"] = "none"
    headers["Last-Modified"] = HTTPDate.format(modified)
    if let expires {
      headers["Expires"] = expires
    } else {
      headers["Cache-Control"] = object.cacheControl
    }
    if let download = request.queryValue("download") {
      headers["Content-Disposition"] = Self.contentDisposition(download)
    }
    let notModified =
      request.headers["If-None-Match"] == eTag
      || request.headers["If-Modified-Since"].flatMap { HTTPDate.parse($0) }.map { modified <= $0 }
        == true
    if notModified {
      close(fd)
      return HTTPResponse(status: 304, headers: headers)
    }
    var response = HTTPResponse(status: 200, headers: headers)
    if let range = request.headers["Range"] {
      guard let (from, to) = Self.byteRange(range, size: size) else {
        close(fd)
        throw .invalidRange
      }
      response.status = 206
      response.headers["Content-Range"] = "bytes \(from)-\(to)/\(size)"
      response.bodyFile = HTTPFileBody(fd: fd, offset: from, length: to - from + 1)
    } else {
      response.bodyFile = HTTPFileBody(fd: fd, offset: 0, length: size)
    }
    return response
  }

  /// `Content-Disposition` for `?download=`: the object's own name when empty, else `name`.
  static func contentDisposition(_ name: String) -> String {
    guard !name.isEmpty else { return "attachment;" }
    let encoded = URIComponent.encode(name)
    return "attachment; filename=\(encoded); filename*=UTF-8''\(encoded)"
  }

  /// A `Range: bytes=a-b` (or `a-`, or `-n`) within `size`, as Storage's `parseRangeHeader`.
  static func byteRange(_ header: String, size: Int64) -> (Int64, Int64)? {
    guard header.hasPrefix("bytes="), size > 0 else { return nil }
    let spec = header.dropFirst(6).split(separator: "-", omittingEmptySubsequences: false)
    guard spec.count == 2,
      spec.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) })
    else { return nil }
    if spec[0].isEmpty {
      guard let suffix = Int64(spec[1]), suffix > 0 else { return nil }
      return (max(size - suffix, 0), size - 1)
    }
    guard let from = Int64(spec[0]), from < size else { return nil }
    let to = spec[1].isEmpty ? size - 1 : Int64(spec[1]) ?? -1
    guard to >= from else { return nil }
    return (from, min(to, size - 1))
  }

  /// GET /object/info/... (and HEAD /object/...): the object's facts as JSON, or its headers.
  func info(
    _ bucketID: String, _ rawName: String, access: StorageRoute.Access, head: Bool,
    caller: StorageCaller
  ) throws(StorageFailure) -> HTTPResponse {
    let route =
      head
      ? StorageRoute.head(bucket: bucketID, name: rawName, access: access)
      : StorageRoute.info(bucket: bucketID, name: rawName, access: access)
    let bucket = try readableBucket(bucketID, access: access, caller: caller, route: route)
    let name = try StorageKey.object(rawName)
    let auth = bucket.isPublic || access == .public ? StorageCaller.superuser : caller.auth
    let text = try transaction(auth, route) { tx in
      try tx.execute(
        """
        select o.id, o.version, o.metadata::text, json_build_object('id', o.id, 'name', o.name,
          'version', o.version, 'bucket_id', o.bucket_id, 'size', o.metadata -> 'size',
          'content_type', o.metadata -> 'mimetype', 'cache_control', o.metadata -> 'cacheControl',
          'etag', o.metadata -> 'eTag', 'metadata', o.user_metadata,
          'last_modified', \(StorageSQL.time("o.updated_at")),
          'created_at', \(StorageSQL.time("o.created_at")))::text
        from storage.objects o where o.bucket_id = $1 and o.name = $2 limit 1
        """, [bucketID, name]
      ).rows.first
    }
    guard let text, let object = StorageObjectRow(text) else { throw .noSuchKey(name) }
    var headers = HTTPHeaders()
    if let eTag = object.eTag { headers["ETag"] = eTag }
    headers["Cache-Control"] = object.cacheControl
    if head {
      headers["Accept-Ranges"] = "bytes"
      headers["Content-Type"] = object.mimetype
      headers["X-Robots-Tag"] = "none"
      var response = HTTPResponse(status: 200, headers: headers)
      response.bodyFile = HTTPFileBody(fd: nil, offset: 0, length: object.size)
      return response
    }
    return Self.compact(text[3] ?? "{}", headers: headers)
  }
}

/// JavaScript's `encodeURIComponent`, which Storage's `Content-Disposition` uses.
enum URIComponent {
  static func encode(_ text: String) -> String {
    var result = ""
    for byte in text.utf8 {
      if PercentEncoding.isUnreserved(byte) || "!*'()".utf8.contains(byte) {
        result.unicodeScalars.append(Unicode.Scalar(byte))
      } else {
        result += String(format: "%%%02X", byte)
      }
    }
    return result
  }
}
