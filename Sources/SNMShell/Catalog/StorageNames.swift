import Foundation
import SNMSupabase
import Synchronization

/// The Storage names Tab offers: bucket names, and the folders and files of the folders looked
/// at. Known names are answered at once; the bucket names are listed as soon as a lister is set,
/// and an unknown folder is listed when Tab first reaches it, waited for up to `firstWait` (a
/// slower answer is offered by the next Tab). Results of `storage buckets` and `storage ls`
/// count too.
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
    /// The listings under way, by key; each group ends when its answer is stored.
    var pending: [String: DispatchGroup] = [:]
    var lister: Lister?
  }

  let state = Mutex(State())
  /// How long Tab waits for a folder it has not seen (a loopback or nearby project answers well
  /// within it; a slow one is offered on the next Tab).
  let firstWait: DispatchTimeInterval

  public init(firstWait: DispatchTimeInterval = .milliseconds(300)) {
    self.firstWait = firstWait
  }

  /// How to list what is not known yet (the shell's Storage manager with the session's token);
  /// starts listing the bucket names in the background.
  public func setLister(_ lister: @escaping Lister) {
    state.withLock {
      $0.lister = lister
      $0.buckets = nil
      $0.folders = [:]
    }
    _ = startListing(bucket: nil, folder: "")
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

  /// What is known of a folder; when nothing is, lists it (or finds it being listed) and waits up
  /// to `firstWait`.
  func known(bucket: String?, folder: String) -> [String] {
    if let names = names(bucket: bucket, folder: folder) { return names }
    guard let listed = startListing(bucket: bucket, folder: folder) else { return [] }
    _ = listed.wait(timeout: .now() + firstWait)
    return names(bucket: bucket, folder: folder) ?? []
  }

  func names(bucket: String?, folder: String) -> [String]? {
    guard let bucket else { return state.withLock { $0.buckets } }
    return state.withLock { $0.folders["\(bucket)/\(folder)"] }
  }

  /// Lists a folder (nil bucket: the buckets) in the background unless it is being listed; the
  /// group ends when the answer is stored (the listing under way, when there is one: the bucket
  /// names, listed from the first key typed, may still be on their way at the first Tab).
  func startListing(bucket: String?, folder: String) -> DispatchGroup? {
    let key = bucket.map { "\($0)/\(folder)" } ?? ""
    let started = state.withLock { state -> (lister: Lister?, group: DispatchGroup)? in
      if let group = state.pending[key] { return (nil, group) }
      guard let lister = state.lister else { return nil }
      let group = DispatchGroup()
      group.enter()
      state.pending[key] = group
      return (lister, group)
    }
    guard let started else { return nil }
    guard let lister = started.lister else { return started.group }
    let group = started.group
    Task.detached(priority: .userInitiated) { [self] in
      let listed = await lister(bucket, folder)
      state.withLock { state in
        state.pending[key] = nil
        guard let listed else { return }
        if bucket == nil { state.buckets = listed } else { state.folders[key] = listed }
      }
      group.leave()
    }
    return group
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
