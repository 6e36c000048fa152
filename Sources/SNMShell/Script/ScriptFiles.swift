import Foundation

/// The script files `snm test` and `snm check` take: files as named, and every `*.snm` under a
/// directory (recursively), in path order. Under a directory, names starting with `_` or `.` are
/// left out: `_lib/login.snm` holds what other files `run`, not a test of its own.
///
/// ```swift
/// let files = try ScriptFiles.collect(["smoke", "extra/one.snm"], note: { print($0) })
/// // ["smoke/a.snm", "smoke/sub/b.snm", "extra/one.snm"]
/// ```
/// Throws `UsageError` for a path that does not exist, a directory without `.snm` files, one
/// that cannot be read or is past a bound (``ScriptWalk``), and for `-` where it is not taken.
/// What a walk leaves out on purpose (a symbolic link to a directory unless `follow`, a FIFO
/// named `x.snm`, a pseudo filesystem) is said through `note`, never skipped in silence; a
/// directory where nothing is left to check is an error that says why.
public enum ScriptFiles {
  /// The refusal of `-` named twice, wherever scripts are named.
  public static let standardInputTwice = "'-' named twice: standard input is read once"

  /// `standardInput`: whether `-` (standard input, read once) may be named, as `snm check` takes
  /// it; `snm test` does not (a test may run again under `--retry`).
  public static func collect(
    _ paths: [String], standardInput: Bool = true, follow: Bool = false,
    note: (String) -> Void
  ) throws(UsageError) -> [String] {
    var files: [String] = []
    var seen: Set<String> = []
    for path in paths {
      if path == "-" {
        guard standardInput else {
          throw UsageError(
            "'-' (standard input) is not a test file: a test is named by its path and may run "
              + "again (--retry); write it to a file, or run it with 'snm - < FILE' (a file "
              + "named '-': './-')")
        }
        guard seen.insert(path).inserted else { throw UsageError(standardInputTwice) }
        files.append(path)
        continue
      }
      var info = stat()
      guard stat(path, &info) == 0 else {
        let problem = ScriptLoader.failure(at: path, errno: errno)
        if case .notFound = problem {
          throw UsageError("no such file or directory \(ScriptLoadError.shown(path))")
        }
        throw UsageError(problem.description)
      }
      var found = [path]
      if info.st_mode & S_IFMT == S_IFDIR {
        var walk = ScriptWalk(directory: path, follow: follow)
        found = try walk.scripts()
        walk.notes.forEach(note)
        guard !found.isEmpty else {
          let links = walk.skippedLinks
          throw UsageError(
            "no .snm files under \(ScriptLoadError.shown(path))"
              + (links == 0
                ? ""
                : links == 1
                  ? " (1 symbolic link to a folder skipped: --follow walks it)"
                  : " (\(links) symbolic links to folders skipped: --follow walks them)"))
        }
      }
      for file in found where seen.insert(ScriptLoader.identity(of: file)).inserted {
        files.append(file)
      }
    }
    return files
  }
}
