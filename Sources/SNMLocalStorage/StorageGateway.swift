import Foundation
import SNMGateway
import SNMWire

/// The local project's `/storage/v1`: Supabase Storage's REST API on the project's Postgres, with
/// `storage.buckets` and `storage.objects` as Storage has them and every access decided by their
/// RLS policies, run as the request's role (Storage's own reads run as service_role, as its
/// "superuser" connection does). Object bytes live under the data dir (``StorageFiles``).
///
/// ```swift
/// let storage = try StorageGateway(pool: pool, root: dataDir + "/storage", signer: signer)
/// storage.handle(request, caller: caller)        // buckets, listings, info, signing, ...
/// storage.bodyPlan(for: head, caller: caller)    // uploads: streamed to disk as they arrive
/// ```
/// Never throws: every failure is Storage's error answer.
public struct StorageGateway: Sendable {
  let pool: PGPool
  package let files: StorageFiles
  /// Signs and verifies signed-URL tokens (HS256 with the project's secret, as Storage's
  /// `urlSigningKey` defaults to its JWT secret).
  let signer: JWTSigner
  public let settings: StorageSettings
  let now: @Sendable () -> Double

  package init(
    pool: PGPool, root: String, signer: JWTSigner, settings: StorageSettings = StorageSettings(),
    now: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }
  ) throws(StorageFailure) {
    self.pool = pool
    self.files = try StorageFiles(root: root)
    self.signer = signer
    self.settings = settings
    self.now = now
  }

  /// Answers one request whose body (if any) was read whole.
  public func handle(_ request: HTTPRequest, caller: StorageCaller) -> HTTPResponse {
    let route = StorageRoute(method: request.method, path: request.path)
    do {
      try checkToken(route, caller: caller)
      try checkNames(route)
      return try answer(route, request: request, caller: caller)
    } catch {
      return error.response
    }
  }

  /// A route that needs a token refuses a request whose token did not verify, as Storage's JWT
  /// check does (its message, 400 with statusCode 403).
  func checkToken(_ route: StorageRoute, caller: StorageCaller) throws(StorageFailure) {
    guard !caller.isAuthenticated, !route.allowsInvalidToken else { return }
    throw .accessDenied(caller.tokenError ?? "Invalid Compact JWS")
  }

  /// The bucket and object named in the path, refused (400 InvalidBucketName, InvalidKey) when
  /// none could have them (a NUL, too long), before any query: Postgres would answer 500.
  func checkNames(_ route: StorageRoute) throws(StorageFailure) {
    let (bucket, name) = route.names
    if let bucket { try StorageKey.bucketLookup(bucket) }
    if let name { try StorageKey.lookup(name) }
  }

  func answer(_ route: StorageRoute, request: HTTPRequest, caller: StorageCaller)
    throws(StorageFailure) -> HTTPResponse
  {
    switch route {
    case .listBuckets: return try listBuckets(request, caller: caller)
    case .getBucket(let id): return try getBucket(id, caller: caller)
    case .createBucket: return try createBucket(request, caller: caller)
    case .updateBucket(let id): return try updateBucket(id, request: request, caller: caller)
    case .deleteBucket(let id): return try deleteBucket(id, caller: caller)
    case .emptyBucket(let id): return try emptyBucket(id, caller: caller)
    case .download(let bucket, let name, let access):
      return try download(bucket, name, access: access, request: request, caller: caller)
    case .head(let bucket, let name, let access):
      return try info(bucket, name, access: access, head: true, caller: caller)
    case .info(let bucket, let name, let access):
      return try info(bucket, name, access: access, head: false, caller: caller)
    case .signedDownload(let bucket, let name):
      return try signedDownload(bucket, name, request: request)
    case .sign(let bucket, let name):
      return try sign(bucket, name, request: request, caller: caller)
    case .signMany(let bucket): return try signMany(bucket, request: request, caller: caller)
    case .signUpload(let bucket, let name):
      return try signUpload(bucket, name, request: request, caller: caller)
    case .list(let bucket): return try list(bucket, request: request, caller: caller)
    case .listV2(let bucket): return try listV2(bucket, request: request, caller: caller)
    case .removeMany(let bucket): return try removeMany(bucket, request: request, caller: caller)
    case .remove(let bucket, let name): return try remove(bucket, name, caller: caller)
    case .move: return try move(request, caller: caller, copy: false)
    case .copy: return try move(request, caller: caller, copy: true)
    case .upload, .uploadSigned:
      // Uploads stream through bodyPlan; one that reached here was buffered (a test calls
      // handle directly): run it through the same sink.
      return uploadBuffered(route, request: request, caller: caller)
    case .notFound:
      throw .notFoundRoute
    }
  }

  /// Runs `body` in one transaction as `auth`, with Storage's settings (`storage.operation`,
  /// `storage.allow_delete_query`, the claims); a Postgres error becomes Storage's error.
  func transaction<T>(
    _ auth: RequestAuth, _ route: StorageRoute, _ body: (PGTransaction) throws -> T
  ) throws(StorageFailure) -> T {
    do {
      return try pool.transaction(as: Self.requestRole(auth, route), body)
    } catch let failure as StorageFailure {
      throw failure
    } catch let failure as PGError {
      throw .database(failure)
    } catch {
      throw .internalError()
    }
  }

  /// Who a Storage statement runs as: the caller's role and claims, with the settings Storage's
  /// policies and triggers read (`request.jwt.claim.role`, `request.jwt.claim.sub`,
  /// `storage.operation`, `storage.allow_delete_query`).
  static func requestRole(_ auth: RequestAuth, _ route: StorageRoute) -> RequestRole {
    RequestRole(
      role: auth.role, claims: auth.claimsJSON,
      settings: [
        .init("request.jwt.claim.role", auth.role),
        .init("request.jwt.claim.sub", auth.userID ?? ""),
        .init("storage.operation", route.operation),
        .init("storage.allow_delete_query", "true"),
      ])
  }

  /// The request body as a JSON object (an empty body is `{}`), or Fastify's 400.
  func jsonBody(_ request: HTTPRequest) throws(StorageFailure) -> JSONObject {
    if request.body.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) {
      return JSONObject()
    }
    guard let value = try? JSONValue(parsing: request.body) else {
      throw .validation("Body is not valid JSON but content-type is set to 'application/json'")
    }
    guard let object = value.objectValue else { throw .validation("body must be object") }
    return object
  }

  /// A required string member of a JSON body, or Fastify's "must have required property".
  func requiredString(_ body: JSONObject, _ key: String) throws(StorageFailure) -> String {
    guard let value = body[key] else {
      throw .validation("body must have required property '\(key)'")
    }
    guard let text = value.stringValue else { throw .validation("body/\(key) must be string") }
    return text
  }

  /// A JSON answer of Storage's: 200 unless said.
  static func json(_ value: JSONValue, status: Int = 200) -> HTTPResponse {
    .json(status: status, value)
  }

  /// `{"message": text}`, Storage's answer to a bucket deleted or emptied, an object moved.
  static func message(_ text: String) -> HTTPResponse {
    json(.object([.init("message", .string(text))]))
  }
}

extension StorageGateway {
  /// Removes the version files no row names that were written before `cutoff` (what a gateway
  /// killed between writing an object's file and its row left). How many went.
  @discardableResult
  package func sweep(writtenBefore cutoff: Double) -> Int {
    let versions = try? transaction(StorageCaller.superuser, .notFound) { tx in
      Set(
        try tx.execute("select version from storage.objects where version is not null").rows
          .compactMap { $0[0] })
    }
    guard let versions else { return 0 }
    return files.sweep(referenced: versions, writtenBefore: cutoff)
  }
}

extension StorageGateway {
  /// JSON Postgres built, written compactly as Storage's serialiser writes it.
  static func compact(_ text: String, headers: HTTPHeaders = HTTPHeaders()) -> HTTPResponse {
    guard let value = try? JSONValue(parsing: text) else {
      return .json(status: 200, text, headers: headers)
    }
    return .json(status: 200, value, headers: headers)
  }
}
