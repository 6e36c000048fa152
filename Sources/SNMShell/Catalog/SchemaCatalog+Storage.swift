import SNMNetwork
import SNMSupabase

extension SchemaCatalog {
  /// Starts loading the project's schema in the background (``startLoading(provider:project:cache:accessToken:)``)
  /// and lists buckets and objects for completion through `storage`; returns at once.
  func startLoading(
    provider: SNMNetworkProvider, project: ProjectSelection, storage: SupabaseStorageManager,
    cache: SchemaCache?
  ) {
    startLoading(provider: provider, project: project, cache: cache)
    list(through: storage)
  }

  /// Keeps both loads, the schema's and the bucket names' (``startLoading(provider:project:storage:cache:)``),
  /// for their first need (``prepareLoading(_:)``).
  func prepareLoading(
    provider: SNMNetworkProvider, project: ProjectSelection, storage: SupabaseStorageManager,
    cache: SchemaCache?
  ) {
    prepareLoading { [self] in
      startLoading(provider: provider, project: project, storage: storage, cache: cache)
    }
  }

  /// Has completion list buckets (from now on, in the background) and the objects of a folder
  /// through `storage`.
  func list(through storage: SupabaseStorageManager) {
    self.storage.setLister { bucket, folder in
      do {
        guard let bucket else {
          let listed = try await storage.listBuckets().request()
          return listed.value.arrayValue?.compactMap { $0["id"]?.stringValue }
        }
        let listed = try await storage.from(bucket)
          .list(SupabaseStorageListOptions(prefix: folder, limit: 200)).request()
        return listed.value.arrayValue?.compactMap { entry in
          guard let name = entry["name"]?.stringValue else { return nil }
          return entry["id"]?.isNull ?? true ? name + "/" : name
        }
      } catch {
        return nil
      }
    }
  }
}
