/// The phase of a Storage builder chain, as a type: a bucket, then a path, then the operation.
///
/// ```swift
/// manager.from("avatars").setPath("a.jpg").info().request()   // compiles
/// manager.from("avatars").setPath("a.jpg").request()          // does not: no operation yet
/// manager.from("avatars").info()                              // does not: info needs a path
/// ```
public protocol SupabaseStorageBuilderPhase: Sendable {}

/// The phases of ``SupabaseStorageRequestBuilder``.
public enum SupabaseStoragePhase {
  /// A bucket is named: bucket operations (`list`, `remove`, `emptyBucket`, `deleteBucket`) or
  /// `setPath` for one object.
  public enum NeedsPath: SupabaseStorageBuilderPhase {}
  /// An object's path is set: its operations (`upload`, `download`, `info`, `exists`,
  /// `createSignedURL`, `move`, `copy`, `publicURL`).
  public enum NeedsOperation: SupabaseStorageBuilderPhase {}
  /// The operation is chosen: `build()`, `request()` and the renderers are available.
  public enum Ready: SupabaseStorageBuilderPhase {}
}
