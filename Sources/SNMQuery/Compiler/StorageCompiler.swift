import Foundation
import SNMNetwork
import SNMSupabase
import SNMWire

/// Compiles `storage` statements into `SupabaseStorageManager` builder chains, as
/// ``StatementCompiler`` does queries: the only way snm makes Storage requests.
///
/// ```swift
/// let compiler = StorageCompiler(manager: remoteStorageManager, scope: scope)
/// switch try compiler.compile(statement) {
/// case .request(let builder, let request): try await builder.request()
/// case .url(let url): print(url)     // storage url: no request
/// }
/// ```
/// Variables are filled in from `scope`; a value that cannot be, or a chain the builder refuses
/// (a `..` segment, an expiry of 0), is a `Diagnostic` and nothing is sent. Files on this
/// machine are taken relative to `baseDirectory` (a script's own folder), else as written.
public struct StorageCompiler: Sendable {
  public var manager: SupabaseStorageManager
  public var scope: VariableScope
  public var baseDirectory: String?

  public init(
    manager: SupabaseStorageManager, scope: VariableScope = VariableScope(),
    baseDirectory: String? = nil
  ) {
    self.manager = manager
    self.scope = scope
    self.baseDirectory = baseDirectory
  }

  public enum Compiled: Sendable {
    case request(
      builder: SupabaseStorageRequestBuilder<SupabaseStoragePhase.Ready>,
      request: SupabaseStorageRequest)
    /// `storage url`: the public URL, with no request to send.
    case url(String)
  }

  /// The Storage statement inside `statement` (itself, or in `explain` or `let`), or nil.
  public static func storageStatement(_ statement: Statement) -> StorageStatement? {
    statement.inner { kind in
      if case .storage(let storage) = kind { storage } else { nil }
    }
  }

  /// Compiles a Storage statement (or one inside `explain` or `let`).
  ///
  /// - Throws: `Diagnostic` at the value that cannot be filled in, or at the statement for a
  ///   chain the builder refuses.
  public func compile(_ statement: Statement) throws(Diagnostic) -> Compiled {
    let storage = try statement.requiring(Self.storageStatement(statement))
    do {
      return try compile(storage)
    } catch let refusal as SupabaseStorageError {
      throw Diagnostic(.builderRefused(refusal.description), at: statement.range)
    } catch let diagnostic as Diagnostic {
      throw diagnostic
    } catch {
      throw Diagnostic(.builderRefused("\(error)"), at: statement.range)
    }
  }

  func compile(_ storage: StorageStatement) throws -> Compiled {
    func ready(_ builder: SupabaseStorageRequestBuilder<SupabaseStoragePhase.Ready>) throws
      -> Compiled
    {
      .request(builder: builder, request: try builder.build())
    }
    switch storage {
    case .buckets:
      return try ready(manager.listBuckets())
    case .createBucket(let name, let isPublic, let limit, let types):
      var options = SupabaseStorageBucketOptions(isPublic: isPublic)
      if let limit { options.fileSizeLimit = try text(limit) }
      if !types.isEmpty { options.allowedMimeTypes = try types.map(text) }
      return try ready(manager.createBucket(try text(name), options: options))
    case .dropBucket(let name):
      return try ready(manager.from(try text(name)).deleteBucket())
    case .emptyBucket(let name):
      return try ready(manager.from(try text(name)).emptyBucket())
    case .list(let listing):
      let (bucket, folder) = try split(listing.path)
      var options = SupabaseStorageListOptions(prefix: folder ?? "")
      if let limit = listing.limit { options.limit = try number(limit, clause: "limit") }
      if let offset = listing.offset { options.offset = try number(offset, clause: "offset") }
      if let search = listing.search { options.search = try text(search) }
      if let column = listing.sortColumn { options.sortColumn = column }
      options.descending = listing.descending
      return try ready(manager.from(bucket).list(options))
    case .upload(let upload):
      let (bucket, path) = try split(upload.path)
      var options = SupabaseStorageUpload(
        file: LocalPath.resolve(try text(upload.file), directory: baseDirectory))
      options.upsert = upload.upsert
      if let type = upload.contentType { options.contentType = try text(type) }
      if let cache = upload.cache { options.cacheControl = try number(cache, clause: "cache") }
      return try ready(manager.from(bucket).setPath(path ?? "").upload(options))
    case .download(let path, let to, let isPublic):
      let (bucket, object) = try split(path)
      let destination = try to.map { LocalPath.resolve(try text($0), directory: baseDirectory) }
      return try ready(
        manager.from(bucket).setPath(object ?? "")
          .download(.init(destination: destination, isPublic: isPublic)))
    case .move(let from, let to), .copy(let from, let to):
      let (bucket, source) = try split(from)
      let (destinationBucket, destination) = try split(to)
      let object = manager.from(bucket).setPath(source ?? "")
      let other = destinationBucket == bucket ? nil : destinationBucket
      if case .move = storage {
        return try ready(object.move(to: destination ?? "", bucket: other))
      }
      return try ready(object.copy(to: destination ?? "", bucket: other))
    case .remove(let paths):
      var bucket: String?
      var names: [String] = []
      for node in paths {
        let (owner, name) = try split(node)
        if let bucket, bucket != owner {
          throw Diagnostic(.storageBuckets([bucket, owner]), at: node.range)
        }
        bucket = owner
        names.append(name ?? "")
      }
      return try ready(manager.from(bucket ?? "").remove(paths: names))
    case .info(let path):
      let (bucket, object) = try split(path)
      return try ready(manager.from(bucket).setPath(object ?? "").info())
    case .exists(let path):
      let (bucket, object) = try split(path)
      return try ready(manager.from(bucket).setPath(object ?? "").exists())
    case .sign(let path, let expires, let download):
      let (bucket, object) = try split(path)
      return try ready(
        manager.from(bucket).setPath(object ?? "").createSignedURL(
          expiresIn: try number(expires, clause: "expires"),
          download: download ? .originalName : nil))
    case .url(let path, let download):
      let (bucket, object) = try split(path)
      return .url(
        try manager.from(bucket).setPath(object ?? "").publicURL(
          download: download ? .originalName : nil))
    }
  }

  /// `bucket/some/path` as (bucket, path), the path nil when there is none.
  func split(_ node: ValueNode) throws -> (String, String?) {
    if case .variable(let reference) = node.value, scope.isPlaceholder(reference) {
      return ("placeholder", "placeholder")
    }
    let written = try text(node)
    let trimmed = written.drop { $0 == "/" }
    guard let slash = trimmed.firstIndex(of: "/") else { return (String(trimmed), nil) }
    let rest = trimmed[trimmed.index(after: slash)...]
    return (String(trimmed[..<slash]), rest.isEmpty ? nil : String(rest))
  }

  func text(_ node: ValueNode) throws(Diagnostic) -> String {
    if case .variable(let reference) = node.value, scope.isPlaceholder(reference) {
      return "placeholder"
    }
    if case .number(let digits) = node.value { return digits }
    return try ValueEvaluator.text(node, in: scope)
  }

  func number(_ node: ValueNode, clause: String) throws(Diagnostic) -> Int {
    try StatementCompiler(manager: SupabaseDBManager(config: manager.config), scope: scope)
      .count(node, clause: clause)
  }
}
