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
