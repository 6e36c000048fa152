import Foundation
import SNMGateway

#if canImport(Glibc)
  import Glibc
#endif

/// A project folder's seed files (`[db.seed] sql_paths`, by default `supabase/seed.sql`), run
/// after the migrations when the database is new: on the first start and after `snm local reset`.
///
/// ```swift
/// let seed = ProjectSeed(config: config)
/// let (files, missing) = seed.files()      // ["/repo/supabase/seed.sql"], []
/// try seed.apply(files, on: connection)
/// ```
struct ProjectSeed {
  var config: ProjectFolderConfig

  /// The files in order (each pattern's matches sorted, each file once), and the patterns that
  /// matched no file.
  func files() -> (files: [String], unmatched: [String]) {
    guard config.seedEnabled else { return ([], []) }
    var files: [String] = []
    var unmatched: [String] = []
    for pattern in config.seedPaths {
      let matches = Self.glob(config.folder.resolved(pattern))
      if matches.isEmpty { unmatched.append(pattern) }
      for file in matches where !files.contains(file) { files.append(file) }
    }
    return (files, unmatched)
  }

  /// Runs each file in a transaction of its own, in order.
  ///
  /// - Throws: `LocalProjectError` naming the file and Postgres's message; the migrations stay.
  func apply(_ files: [String], on connection: PGConnection) throws(LocalProjectError) {
    for file in files {
      guard let sql = try? String(contentsOfFile: file, encoding: .utf8) else {
        throw LocalProjectError(
          .usage, "cannot read the seed file \(ProjectFolder.shown(file)) as UTF-8 text")
      }
      do {
        _ = try connection.execute("begin")
        try connection.executeScript(sql)
        _ = try connection.execute("commit")
      } catch {
        _ = try? connection.execute("rollback")
        var text = "seed \(ProjectFolder.shown(file)) failed: \(error.message)"
        if let detail = error.detail { text += " (\(detail))" }
        throw LocalProjectError(
          .failed, text + "; the migrations are applied: fix it, then snm local reset")
      }
    }
  }

  /// The files `pattern` names (`*`, `?` and `[...]` as the shell has them), sorted.
  static func glob(_ pattern: String) -> [String] {
    var found = glob_t()
    defer { globfree(&found) }
    guard Glibc.glob(pattern, 0, nil, &found) == 0 else { return [] }
    var paths: [String] = []
    for index in 0..<Int(found.gl_pathc) {
      guard let path = found.gl_pathv[index] else { continue }
      let text = String(cString: path)
      if ProjectFolder.isFile(text) { paths.append(text) }
    }
    return paths
  }
}
