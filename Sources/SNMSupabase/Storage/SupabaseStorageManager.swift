import SNMNetwork

/// The app's fifth manager: starts builder chains against one project's Storage API
/// (`/storage/v1`), as ``SupabaseDBManager`` does against its REST API.
///
/// ```swift
/// let remoteStorageManager = SupabaseStorageManager(
///   config: config, provider: provider,
///   accessToken: { try await SessionManager.shared.requestToken() })
/// try await remoteStorageManager.from("avatars").setPath("\(userID)/bori.jpg")
///   .upload(file: "bori.jpg").request()
/// let url = try await remoteStorageManager.from("avatars").setPath("\(userID)/bori.jpg")
///   .createSignedURL(expiresIn: 60).request().signedURL
/// ```
///
/// A chain names a bucket, then (for one object) a path, then the operation; `request()` exists
/// only once the operation is chosen (``SupabaseStoragePhase``). Like the DB layer it knows
/// nothing of Auth: `accessToken` is asked once per request, and its `nil` sends the API key
/// (``SupabaseProjectManager``).
public struct SupabaseStorageManager: SupabaseProjectManager {
  public let link: SupabaseProjectLink

  public init(link: SupabaseProjectLink) {
    self.link = link
  }

  /// The Storage API's base: the project URL + `/storage/v1`.
  public var storageURL: String {
    var base = config.url
    while base.hasSuffix("/") { base.removeLast() }
    return base + "/storage/v1"
  }

  /// Every bucket the caller may see: GET `/storage/v1/bucket`.
  public func listBuckets() -> SupabaseStorageRequestBuilder<SupabaseStoragePhase.Ready> {
    SupabaseStorageRequestBuilder(manager: self, bucket: nil, operation: .listBuckets)
  }

  /// Creates a bucket: POST `/storage/v1/bucket` with `{"id", "name", "public", ...}`.
  public func createBucket(_ id: String, options: SupabaseStorageBucketOptions = .init())
    -> SupabaseStorageRequestBuilder<SupabaseStoragePhase.Ready>
  {
    SupabaseStorageRequestBuilder(manager: self, bucket: id, operation: .createBucket(options))
  }

  /// Starts a chain on one bucket: its objects, or the bucket itself.
  public func from(_ bucket: String) -> SupabaseStorageRequestBuilder<
    SupabaseStoragePhase.NeedsPath
  > {
    SupabaseStorageRequestBuilder(manager: self, bucket: bucket)
  }
}
