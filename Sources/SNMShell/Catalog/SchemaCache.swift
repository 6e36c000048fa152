import Foundation
import SNMSupabase

/// The last OpenAPI document seen for each project, so completion works from the first prompt.
///
/// ```swift
/// let cache = SchemaCache(directory: SchemaCache.defaultDirectory())
/// cache.store(body, for: project.url)
/// let body = cache.load(for: project.url)
/// ```
/// Files live in `$XDG_CACHE_HOME/snm/schema/` (else `~/.cache/snm/schema/`), one per project URL,
/// named after its host, port and a hash of the whole URL. Failures are ignored: it is a cache.
public struct SchemaCache: Sendable {
  /// The directory holding the cached documents.
  public let directory: String

  public init(directory: String) {
    self.directory = directory
  }

  /// `$XDG_CACHE_HOME/snm/schema`, else `~/.cache/snm/schema`.
  public static func defaultDirectory(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> String {
    XDGDirectory.cache.snmPath(environment: environment) + "/schema"
  }

  /// The file for `url`: `127.0.0.1-54321-<hash>.json`.
  public func path(for url: URL) -> String {
    let host = (url.host ?? "project").filter { $0.isLetter || $0.isNumber || $0 == "." }
    let port = url.port.map { "-\($0)" } ?? ""
    return directory + "/\(host)\(port)-\(Self.hash(url.absoluteString)).json"
  }

  /// The cached document for `url`, if any.
  public func load(for url: URL) -> Data? {
    FileManager.default.contents(atPath: path(for: url))
  }

  /// When the cached document for `url` was stored, if there is one.
  public func storedAt(for url: URL) -> Date? {
    let attributes = try? FileManager.default.attributesOfItem(atPath: path(for: url))
    return attributes?[.modificationDate] as? Date
  }

  /// Replaces the cached document for `url`.
  public func store(_ document: Data, for url: URL) {
    guard FileIO.makeDirectory(directory) == nil else { return }
    _ = FileIO.writeAtomically(document, to: path(for: url))
  }

  /// `FileIO.stableHash` as 16 hex digits.
  static func hash(_ text: String) -> String {
    let hex = String(FileIO.stableHash(text), radix: 16)
    return String(repeating: "0", count: 16 - hex.count) + hex
  }
}
