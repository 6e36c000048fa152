import Foundation

/// A file on this machine that a statement names (`storage upload`'s file and `download ... to`'s,
/// `invoke ... file`, `insert file|csv`, `> 'out.csv'`) as the statement opens it: `~/` at the
/// start is the home folder, an absolute path is as written, and any other is under `directory`
/// (the folder of the script file the statement is in, as `run`'s are), else under the working
/// directory (nil: `-c`, standard input, the prompt). The one place each of them is resolved, and
/// what `snm check` resolves a file a script writes with (``WrittenFiles``).
///
/// ```swift
/// LocalPath.resolve("out.csv", directory: "tests")   // "tests/out.csv"
/// LocalPath.resolve("~/out.csv", directory: nil)     // "/home/me/out.csv"
/// ```
public enum LocalPath {
  public static func resolve(_ path: String, directory: String?) -> String {
    if path.hasPrefix("~/") { return NSString(string: path).expandingTildeInPath }
    guard let directory, !path.hasPrefix("/") else { return path }
    return (directory as NSString).appendingPathComponent(path)
  }
}
