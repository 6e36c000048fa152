import SNMNetwork
import SNMWire

/// What a Storage builder chain holds in every phase; a change of phase carries it over whole
/// (a type of its own, outside the generic builder, so that every phase holds the same one).
struct SupabaseStorageChain: Sendable {
  let manager: SupabaseStorageManager
  var calls: [SupabaseStorageCall]
  var bucket: String?
  var path: String?
  var operation: SupabaseStorageOperation?
}

/// A Storage builder chain: a value each call copies and extends, in three phases (a bucket, a
/// path, the operation) so that an incomplete chain does not compile.
///
/// ```swift
/// try await remoteStorageManager.from("avatars").setPath("\(userID)/bori.jpg")
///   .upload(file: "bori.jpg", options: .init(upsert: true)).request()
/// try await remoteStorageManager.from("avatars").list(prefix: "\(userID)/").request()
/// ```
public struct SupabaseStorageRequestBuilder<Phase: SupabaseStorageBuilderPhase>: Sendable {
  var chain: SupabaseStorageChain

  /// Everything the chain said so far, in order.
  public var calls: [SupabaseStorageCall] { chain.calls }

  init(manager: SupabaseStorageManager, bucket: String?, operation: SupabaseStorageOperation) {
    chain = SupabaseStorageChain(
      manager: manager, calls: [.start(operation, bucket: bucket)], bucket: bucket,
      operation: operation)
  }

  init(manager: SupabaseStorageManager, bucket: String) {
    chain = SupabaseStorageChain(manager: manager, calls: [.from(bucket)], bucket: bucket)
  }

  private init<Other>(_ other: SupabaseStorageRequestBuilder<Other>) {
    chain = other.chain
  }

  func then<Next>(_ operation: SupabaseStorageOperation) -> SupabaseStorageRequestBuilder<Next> {
    var next = SupabaseStorageRequestBuilder<Next>(self)
    next.chain.operation = operation
    next.chain.calls.append(.operation(operation))
    return next
  }
}

/// One call of a Storage chain, kept so the built request can print the chain as Swift.
public enum SupabaseStorageCall: Sendable, Hashable {
  /// A manager call that is the whole operation (`listBuckets()`, `createBucket(_:)`).
  case start(SupabaseStorageOperation, bucket: String?)
  case from(String)
  case setPath(String)
  case operation(SupabaseStorageOperation)
}

extension SupabaseStorageRequestBuilder where Phase == SupabaseStoragePhase.NeedsPath {
  /// The object inside the bucket (`dogs/bori.jpg`; leading, trailing and repeated `/` dropped).
  public func setPath(_ path: String) -> SupabaseStorageRequestBuilder<
    SupabaseStoragePhase.NeedsOperation
  > {
    var next = SupabaseStorageRequestBuilder<SupabaseStoragePhase.NeedsOperation>(self)
    next.chain.path = path
    next.chain.calls.append(.setPath(path))
    return next
  }

  /// The folders and files one level below `options.prefix`.
  public func list(_ options: SupabaseStorageListOptions = .init())
    -> SupabaseStorageRequestBuilder<SupabaseStoragePhase.Ready>
  {
    then(.list(options))
  }

  /// Deletes these objects (paths inside the bucket); those not there, or not the caller's to
  /// delete, are left out of the answer.
  public func remove(paths: [String]) -> SupabaseStorageRequestBuilder<SupabaseStoragePhase.Ready> {
    then(.remove(paths: paths))
  }

  /// Deletes every object in the bucket.
  public func emptyBucket() -> SupabaseStorageRequestBuilder<SupabaseStoragePhase.Ready> {
    then(.emptyBucket)
  }

  /// Deletes the bucket, which must be empty.
  public func deleteBucket() -> SupabaseStorageRequestBuilder<SupabaseStoragePhase.Ready> {
    then(.deleteBucket)
  }
}

extension SupabaseStorageRequestBuilder where Phase == SupabaseStoragePhase.NeedsOperation {
  /// Uploads a file from disk to the path (streamed, never whole in memory).
  public func upload(_ upload: SupabaseStorageUpload) -> SupabaseStorageRequestBuilder<
    SupabaseStoragePhase.Ready
  > {
    then(.upload(upload))
  }

  /// Downloads the object: into `download.destination` when given (streamed to disk, written
  /// atomically), else into the answer.
  public func download(_ download: SupabaseStorageDownload = .init())
    -> SupabaseStorageRequestBuilder<SupabaseStoragePhase.Ready>
  {
    then(.download(download))
  }

  /// The object's size, type, etag and dates.
  public func info() -> SupabaseStorageRequestBuilder<SupabaseStoragePhase.Ready> { then(.info) }

  /// Whether the object is there (and the caller may read it).
  public func exists() -> SupabaseStorageRequestBuilder<SupabaseStoragePhase.Ready> {
    then(.exists)
  }

  /// A URL anyone may download the object with for `expiresIn` seconds.
  public func createSignedURL(expiresIn: Int, download: SupabaseStorageDownloadName? = nil)
    -> SupabaseStorageRequestBuilder<SupabaseStoragePhase.Ready>
  {
    then(.createSignedURL(expiresIn: expiresIn, download: download))
  }

  /// Moves (renames) the object to `destination`, in `bucket` when given (else the same one).
  public func move(to destination: String, bucket: String? = nil)
    -> SupabaseStorageRequestBuilder<SupabaseStoragePhase.Ready>
  {
    then(.move(to: destination, bucket: bucket))
  }

  /// Copies the object to `destination`, in `bucket` when given (else the same one).
  public func copy(to destination: String, bucket: String? = nil)
    -> SupabaseStorageRequestBuilder<SupabaseStoragePhase.Ready>
  {
    then(.copy(to: destination, bucket: bucket))
  }

  /// The object's URL in a public bucket: no request is made.
  ///
  /// - Throws: ``SupabaseStorageError`` for a bucket or path that cannot be one.
  public func publicURL(download: SupabaseStorageDownloadName? = nil)
    throws(SupabaseStorageError) -> String
  {
    let bucket = try SupabaseStoragePath.bucket(chain.bucket)
    let path = try SupabaseStoragePath.object(chain.path)
    var url =
      chain.manager.storageURL + "/object/public/"
      + SupabaseStoragePath.encoded(bucket: bucket, path: path)
    if let download {
      url += "?download=" + PercentEncoding.encode(download.queryValue)
    }
    return url
  }
}

extension SupabaseStorageRequestBuilder where Phase == SupabaseStoragePhase.Ready {
  /// The request this chain describes, without sending it (what `snm explain` prints).
  ///
  /// - Throws: ``SupabaseStorageError`` when the bucket, a path or an option cannot be sent.
  public func build() throws(SupabaseStorageError) -> SupabaseStorageRequest {
    guard let operation = chain.operation else {
      throw .invalidOption("the chain names no operation")
    }
    return try SupabaseStorageRequest(
      storageURL: chain.manager.storageURL, bucket: chain.bucket, path: chain.path,
      operation: operation, calls: chain.calls)
  }

  /// Builds the request, asks for the access token and sends it.
  ///
  /// - Throws: ``SupabaseStorageError`` before sending (also when the file to upload cannot be
  ///   read); ``SNMNetworkError`` from the network or the server (`.http` carries Storage's
  ///   `statusCode`, `error` and `message`); the token closure's own errors.
  public func request() async throws -> SupabaseStorageResponse {
    let request = try build()
    let token = try await chain.manager.link.accessToken()
    let endpoint = try request.sendableEndpoint()
    let response: SNMResponse
    do {
      response = try await chain.manager.provider.send(endpoint: endpoint, accessToken: token)
    } catch {
      // A HEAD answer has no body: Storage says 400 (or 404) for an object that is not there.
      if request.operation == .exists, let failure = error.serverError,
        failure.status == 400 || failure.status == 404
      {
        return SupabaseStorageResponse(missing: request, response: failure.response)
      }
      throw error
    }
    return try SupabaseStorageResponse(request: request, response: response)
  }
}
