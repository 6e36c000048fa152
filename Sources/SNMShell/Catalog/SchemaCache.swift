import Foundation
import SNMSupabase

/// The last OpenAPI document seen for each project, so completion works from the first prompt.
///
/// ```swift
/// let cache = SchemaCache(directory: SchemaCache.defaultDirectory())
/// cache.store(body, for: project)
/// let body = cache.load(for: project)
/// ```
/// Files live in `$XDG_CACHE_HOME/snm/schema/` (else `~/.cache/snm/schema/`), one per project and
/// key, named after the URL's host and port and a hash of the URL and the key: local projects
/// served in turn on one port are different projects with different keys, and a project's keys
/// see different tables (anon, service_role). Failures are ignored: it is a cache. A folder others
/// may write in is neither read nor written (``RefusedFolder`` says so once).
public struct SchemaCache: Sendable {
  /// The directory holding the cached documents.
  public let directory: String

  public init(directory: String) {
    self.directory = directory
  }

  /// `$XDG_CACHE_HOME/snm/schema`, else `~/.cache/snm/schema`.
  public static func defaultDirectory(
    environment: [String: String] = ProcessEnvironment.current
  ) -> String {
    XDGDirectory.cache.snmPath(environment: environment) + "/schema"
  }

  /// The file for `project`: `127.0.0.1-54321-<hash of URL and key>.json` (the key never
  /// appears, only its share of the hash).
  public func path(for project: ProjectSelection) -> String {
    let url = project.url
    let host = (url.host ?? "project").filter { $0.isLetter || $0.isNumber || $0 == "." }
    let port = url.port.map { "-\($0)" } ?? ""
    return directory + "/\(host)\(port)-\(Self.hash(url.absoluteString + "\n" + project.key)).json"
  }

  /// The cached document for `project`, if any; none from a folder others may write in
  /// (``RefusedFolder``).
  public func load(for project: ProjectSelection) -> Data? {
    guard !RefusedFolder.refuses(directory) else { return nil }
    return FileManager.default.contents(atPath: path(for: project))
  }

  /// When the cached document for `project` was stored, if there is one.
  public func storedAt(for project: ProjectSelection) -> Date? {
    guard !RefusedFolder.refuses(directory) else { return nil }
    let attributes = try? FileManager.default.attributesOfItem(atPath: path(for: project))
    return attributes?[.modificationDate] as? Date
  }

  /// Replaces the cached document for `project`.
  public func store(_ document: Data, for project: ProjectSelection) {
    guard FileIO.makeDirectory(directory) == nil else { return }
    _ = FileIO.writeAtomically(document, to: path(for: project))
  }

  /// `FileIO.stableHash` as 16 hex digits.
  static func hash(_ text: String) -> String {
    FileIO.stableHashHex(text)
  }
}
