import Foundation

/// The script files `snm test` and `snm check` take: files as named, and every `*.snm` under a
/// directory (recursively), in path order. Under a directory, names starting with `_` or `.` are
/// left out: `_lib/login.snm` holds what other files `run`, not a test of its own.
///
/// ```swift
/// let files = try ScriptFiles.collect(["smoke", "extra/one.snm"])
/// // ["smoke/a.snm", "smoke/sub/b.snm", "extra/one.snm"]
/// ```
/// Throws `UsageError` for a path that does not exist or a directory without `.snm` files.
public enum ScriptFiles {
  public static func collect(_ paths: [String]) throws(UsageError) -> [String] {
    var files: [String] = []
    var seen: Set<String> = []
    for path in paths {
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
        throw UsageError("no such file or directory '\(path)'")
      }
      let found = isDirectory.boolValue ? scripts(under: path) : [path]
      guard !found.isEmpty else { throw UsageError("no .snm files under '\(path)'") }
      for file in found where seen.insert(ScriptLoader.identity(of: file)).inserted {
        files.append(file)
      }
    }
    return files
  }

  /// The `*.snm` files under `directory`, as `directory/relative/path.snm`, sorted by path.
  static func scripts(under directory: String) -> [String] {
    let base = directory.hasSuffix("/") ? String(directory.dropLast()) : directory
    var found: [String] = []
    var pending = [""]
    while let relative = pending.popLast() {
      let absolute = relative.isEmpty ? base : base + "/" + relative
      guard let names = try? FileManager.default.contentsOfDirectory(atPath: absolute) else {
        continue
      }
      for name in names where !name.hasPrefix(".") && !name.hasPrefix("_") {
        let child = relative.isEmpty ? name : relative + "/" + name
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: base + "/" + child, isDirectory: &isDirectory)
        else { continue }
        if isDirectory.boolValue {
          pending.append(child)
        } else if name.hasSuffix(".snm") {
          found.append(child)
        }
      }
    }
    return found.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
      .map { base.isEmpty || base == "." ? $0 : base + "/" + $0 }
  }
}
