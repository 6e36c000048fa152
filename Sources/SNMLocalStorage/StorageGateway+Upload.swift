import Foundation
import SNMGateway
import SNMWire

extension StorageGateway {
  /// Decides, from an upload's head alone, whether its body may come: the bucket, the name, the
  /// size it announces, its type, and (as the caller, rolled back) whether RLS lets it write
  /// there (a form's too, from the bucket and name in its path). A refusal is answered before one byte of the body is read; an accepted body streams
  /// into an ``StorageUploadSink`` (to disk, never whole in memory).
  public func bodyPlan(for request: HTTPRequest, caller: StorageCaller) -> HTTPBodyPlan {
    let route = StorageRoute(method: request.method, path: request.path)
    guard route.streamsBody else { return .buffer }
    do {
      try checkToken(route, caller: caller)
      try checkNames(route)
      return .stream(try prepareUpload(route, request: request, caller: caller))
    } catch {
      var failure = error
      failure.closesConnection = true
      return .answer(failure.response)
    }
  }

  /// An upload that arrived buffered (a direct call of `handle`): the same checks and sink.
  func uploadBuffered(_ route: StorageRoute, request: HTTPRequest, caller: StorageCaller)
    -> HTTPResponse
  {
    let sink: StorageUploadSink
    do {
      sink = try prepareUpload(route, request: request, caller: caller)
    } catch {
      return error.response
    }
    if let stop = request.body.withUnsafeBytes({ sink.receive($0) }) { return stop }
    return sink.finish(request)
  }

  func prepareUpload(_ route: StorageRoute, request: HTTPRequest, caller: StorageCaller)
    throws(StorageFailure) -> StorageUploadSink
  {
    let bucketID: String
    let rawName: String
    var upsert: Bool
    var owner = caller.owner
    var uploader = caller.auth
    var checksPolicy = true
    switch route {
    case .upload(let bucket, let name, let isUpdate):
      bucketID = bucket
      rawName = name
      upsert = isUpdate || request.headers["x-upsert"] == "true"
    case .uploadSigned(let bucket, let name):
      bucketID = bucket
      rawName = name
      guard let token = request.queryValue("token") else {
        throw .validation("querystring must have required property 'token'")
      }
      let claims = try verifySignedToken(token, bucket: bucket, name: name, scope: "upload")
      owner = claims["owner"]?.stringValue
      upsert = claims["upsert"]?.boolValue ?? false
      uploader = Self.signer(of: claims)
      checksPolicy = false
    default:
      throw .notFoundRoute
    }
    _ = try StorageKey.bucket(bucketID)
    let name = try StorageKey.object(rawName)
    guard let bucket = try findBucket(bucketID, route: route) else {
      throw .noSuchBucket(bucketID)
    }
    let placeholder = name.hasSuffix(".emptyFolderPlaceholder")
    var limit = settings.fileSizeLimit
    if let bucketLimit = bucket.fileSizeLimit { limit = min(limit, bucketLimit) }
    if placeholder { limit = 0 }
    let contentType = request.headers["Content-Type"] ?? ""
    let multipart = contentType.lowercased().hasPrefix("multipart/form-data")
    var upload = StorageUpload(
      bucket: bucketID, name: name, owner: owner, upsert: upsert, limit: limit,
      allowedTypes: placeholder ? [] : (bucket.allowedMimeTypes ?? []),
      mimetype: multipart ? "" : (contentType.isEmpty ? "application/octet-stream" : contentType),
      cacheControl: request.headers["Cache-Control"] ?? "no-cache",
      userMetadata: request.headers["x-metadata"].flatMap(Self.userMetadata),
      declaredLength: request.headers["Content-Length"].flatMap { Int64($0) },
      checksPolicy: checksPolicy, auth: checksPolicy ? caller.auth : StorageCaller.superuser,
      uploader: uploader, route: route)
    try upload.checkMetadata()
    let sink: StorageUploadSink
    if multipart {
      guard let boundary = MultipartReader.boundary(of: contentType) else {
        throw .noContentProvided
      }
      if let length = upload.declaredLength, length > limit + StorageUploadSink.formOverhead {
        throw .entityTooLarge()
      }
      // Storage's canUpload: whether the caller may write this name is decided by the head,
      // before one byte of the form is read (its file part's type and the form's metadata are
      // tried again when that part begins).
      var head = upload
      head.declaredLength = nil
      try checkPolicy(head)
      sink = try StorageUploadSink(gateway: self, upload: upload, boundary: boundary)
    } else {
      try upload.checkType()
      if let length = upload.declaredLength, length > limit { throw .entityTooLarge() }
      try checkPolicy(upload)
      upload.policyChecked = true
      sink = try StorageUploadSink(gateway: self, upload: upload, boundary: nil)
    }
    return sink
  }

  /// Who signed an upload URL, from its token's `role` and `owner` (a token without a role was
  /// signed by a user if it names an owner, else by anon).
  static func signer(of claims: JSONValue) -> RequestAuth {
    let owner = claims["owner"]?.stringValue
    let role = claims["role"]?.stringValue ?? (owner == nil ? "anon" : "authenticated")
    var members: [JSONObject.Member] = [.init("role", .string(role))]
    if let owner { members.append(.init("sub", .string(owner))) }
    return RequestAuth(role: role, claims: .object(JSONObject(members)), isAnonymous: owner == nil)
  }

  /// `x-metadata`: base64 JSON of the user's own metadata (storage-js sends it so).
  static func userMetadata(_ header: String) -> JSONValue? {
    guard let data = Data(base64Encoded: header), let value = try? JSONValue(parsing: data),
      value.objectValue != nil
    else { return nil }
    return value
  }

  /// Storage's `canUpload`: the row tried as the caller and rolled back.
  func checkPolicy(_ upload: StorageUpload) throws(StorageFailure) {
    guard upload.checksPolicy else { return }
    var metadata = JSONObject()
    if !upload.mimetype.isEmpty { metadata["mimetype"] = .string(upload.mimetype) }
    if let length = upload.declaredLength { metadata["contentLength"] = .int(Int(length)) }
    try tryUpload(
      upload.bucket, upload.name, owner: upload.owner, upsert: upload.upsert,
      metadata: .object(metadata), userMetadata: upload.userMetadata, auth: upload.auth,
      route: upload.route)
  }

  /// Inserts (or upserts) the row an upload would make, as `auth`, then rolls it back: RLS and
  /// the unique name decide as they will for the real row.
  func tryUpload(
    _ bucket: String, _ name: String, owner: String?, upsert: Bool, metadata: JSONValue,
    userMetadata: JSONValue? = nil, auth: RequestAuth, route: StorageRoute
  ) throws(StorageFailure) {
    let rollback = StorageFailure(0, "snm.rollback", "")
    let parameters: [String?] = [
      bucket, name, owner.flatMap(Self.uuidOrNil), owner, metadata.serialized(),
      userMetadata?.serialized(),
    ]
    do {
      _ = try transaction(auth, route) { tx -> Int in
        _ = try tx.execute(upsert ? StorageSQL.tryUpsert : StorageSQL.tryInsert, parameters)
        throw rollback
      }
    } catch let failure where failure.code == "ResourceAlreadyExists" {
      throw .keyAlreadyExists(name)
    } catch let failure where failure.code == rollback.code {
      // The rollback itself, as intended: the row may be written.
    }
  }

  /// Writes an upload's final row as Storage's superuser, under the object's lock: without
  /// `upsert` only a new row (a name taken meanwhile is 409 Duplicate); with it, a row there is
  /// replaced only if `uploader`'s policies allow that now (tried as them, then rolled back to a
  /// savepoint). The old version's file is removed once the new row commits; the row's id. On
  /// failure the new bytes are removed: nothing is left.
  func complete(
    _ bucket: String, _ name: String, version: String, owner: String?, metadata: JSONValue,
    userMetadata: JSONValue?, upsert: Bool, uploader: RequestAuth, route: StorageRoute
  ) throws(StorageFailure) -> String {
    let parameters: [String?] = [
      bucket, name, owner.flatMap(Self.uuidOrNil), owner, metadata.serialized(),
      userMetadata?.serialized(), version,
    ]
    let written: (id: String, old: String?)
    do {
      written = try transaction(StorageCaller.superuser, route) { tx in
        _ = try tx.execute(StorageSQL.lockObject, [bucket, name])
        let current = try tx.execute(StorageSQL.currentVersion, [bucket, name]).rows.first
        if current != nil {
          guard upsert else { throw StorageFailure.keyAlreadyExists(name) }
          if uploader.role != StorageCaller.superuser.role {
            _ = try tx.execute("savepoint snm_overwrite")
            _ = try tx.execute(Self.requestRole(uploader, route).prelude)
            _ = try tx.execute(StorageSQL.tryUpsert, Array(parameters.prefix(6)))
            _ = try tx.execute("rollback to savepoint snm_overwrite")
          }
        }
        let row = try tx.execute(
          upsert ? StorageSQL.upsertObject : StorageSQL.insertObject, parameters
        ).rows.first
        return (row?.first.flatMap { $0 } ?? "", current?.first.flatMap { $0 })
      }
    } catch {
      files.remove(version: version)
      throw error.code == "ResourceAlreadyExists" ? .keyAlreadyExists(name) : error
    }
    if let old = written.old, old != version { files.remove(version: old) }
    return written.id
  }
}

/// One upload's settings, decided from its head (and, for a form, its file part's head).
struct StorageUpload: Sendable {
  var bucket: String
  var name: String
  var owner: String?
  var upsert: Bool
  /// The most bytes the object may have (the bucket's limit within the project's).
  var limit: Int64
  /// The bucket's MIME types (`image/*`); empty takes any.
  var allowedTypes: [String]
  var mimetype: String
  var cacheControl: String
  var userMetadata: JSONValue?
  var declaredLength: Int64?
  /// Whether RLS is asked (not for a signed upload URL, whose token already decided).
  var checksPolicy: Bool
  var auth: RequestAuth
  /// Whose policies decide, when the upload lands, whether it may replace a row there: the
  /// caller, or the signer of a signed upload URL.
  var uploader: RequestAuth
  var route: StorageRoute
  var policyChecked = false

  /// User metadata jsonb can hold (no NUL in any key or string), at most 100 levels deep.
  func checkMetadata() throws(StorageFailure) {
    guard let userMetadata else { return }
    try StorageKey.checkMetadata(userMetadata, what: "user metadata")
  }

  /// Storage's `validateMimeType` against the bucket's list.
  func checkType() throws(StorageFailure) {
    try StorageBucketRow.checkType(mimetype, allowed: allowedTypes)
  }
}
