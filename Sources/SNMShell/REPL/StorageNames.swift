import Foundation
import SNMSupabase
import Synchronization

/// The Storage names Tab offers: bucket names, and the folders and files of the folders looked
/// at. Known names are answered at once (Tab never waits); an unknown folder is listed in the
/// background, so the next Tab offers it. Results of `storage buckets` and `storage ls` count too.
///
/// ```swift
/// names.candidates(for: "avatars/do")   // ["avatars/dogs/"] once avatars/ was listed
/// ```
public final class StorageNames: Sendable {
  /// Lists a bucket's folder (`nil` bucket: the bucket names). Names of folders end in `/`.
  public typealias Lister = @Sendable (_ bucket: String?, _ folder: String) async -> [String]?

  struct State {
    var buckets: [String]?
    /// `bucket/folder/` → the names in it (folders ending in `/`).
    var folders: [String: [String]] = [:]
    var pending: Set<String> = []
    var lister: Lister?
  }

  let state = Mutex(State())

  public init() {}

  /// How to list what is not known yet (the shell's Storage manager with the session's token).
  public func setLister(_ lister: @escaping Lister) {
    state.withLock { $0.lister = lister }
  }

  /// Bucket names seen (from `storage buckets`, or listed for completion).
  public func note(buckets: [String]) {
    state.withLock { $0.buckets = buckets }
  }

  /// A folder's names seen (from `storage ls`): `folder` is `bucket/path/` or `bucket/`.
  public func note(folder: String, names: [String]) {
    state.withLock { $0.folders[folder] = names }
  }

  /// The completions of a path being typed: buckets (with `/`) before the first `/`, then the
  /// entries of the folder written so far.
  public func candidates(for prefix: String, bucketsOnly: Bool = false) -> [String] {
    guard let slash = prefix.lastIndex(of: "/"), !bucketsOnly else {
      let buckets = known(bucket: nil, folder: "")
      return buckets.map { bucketsOnly ? $0 : $0 + "/" }
    }
    let folder = String(prefix[...slash])
    guard let first = folder.firstIndex(of: "/") else { return [] }
    let bucket = String(folder[..<first])
    let inside = String(folder[folder.index(after: first)...])
    return known(bucket: bucket, folder: inside).map { folder + $0 }
  }

  /// What is known of a folder; starts listing it when nothing is.
  func known(bucket: String?, folder: String) -> [String] {
    let key = bucket.map { "\($0)/\(folder)" } ?? ""
    let (names, lister) = state.withLock { state -> ([String]?, Lister?) in
      let names = bucket == nil ? state.buckets : state.folders[key]
      if names != nil || state.pending.contains(key) { return (names, nil) }
      state.pending.insert(key)
      return (nil, state.lister)
    }
    if let lister {
      Task.detached(priority: .utility) { [self] in
        let listed = await lister(bucket, folder)
        state.withLock { state in
          state.pending.remove(key)
          guard let listed else { return }
          if bucket == nil { state.buckets = listed } else { state.folders[key] = listed }
        }
      }
    }
    return names ?? []
  }
}

extension SchemaCatalog {
  /// Remembers the buckets and folder entries a Storage result showed, for completion.
  func noteStorage(_ response: SupabaseStorageResponse) {
    let request = response.request
    switch request.operation {
    case .listBuckets:
      let names = response.value.arrayValue?.compactMap { $0["id"]?.stringValue } ?? []
      storage.note(buckets: names)
    case .list(let options):
      guard let bucket = request.bucket, let entries = response.value.arrayValue,
        options.search == nil, options.offset == 0
      else { return }
      storage.note(
        folder: bucket + "/" + options.prefix,
        names: entries.compactMap { entry in
          guard let name = entry["name"]?.stringValue else { return nil }
          return entry["id"]?.isNull ?? true ? name + "/" : name
        })
    default:
      break
    }
  }
}
