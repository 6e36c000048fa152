import Foundation
import SNMWire

/// A file on this machine that a statement names (`storage upload`'s file and `download ... to`'s,
/// `invoke ... file`, `insert file|csv`, `> 'out.csv'`, `\o`'s, `run`'s) as the statement opens
/// it: `~/` at the start (or `~` alone) is the home folder (``HomeFolder``: `$HOME`, else the
/// account's), an absolute path is as written, and any other is under `directory` (the folder of
/// the script file the statement is in, as `ScriptRunner.folder(ofScript:)` takes it), else
/// under the working directory (nil: `-c`, standard input, the prompt, and `\o` everywhere, as
/// psql's). `~name/` is a name like any other: one rule for every statement, and snm reads no
/// other account's home. The one place each of them is resolved, and what `snm check` resolves
/// a file a script writes, and a file it runs, with (``WrittenFiles``).
///
/// ```swift
/// LocalPath.resolve("out.csv", directory: "tests")   // "tests/out.csv"
/// LocalPath.resolve("~/out.csv", directory: nil)     // "/home/me/out.csv"
/// LocalPath.resolve("~kim/out.csv", directory: nil)  // "~kim/out.csv"
/// ```
public enum LocalPath {
  public static func resolve(_ path: String, directory: String?) -> String {
    if path == "~" { return HomeFolder.path() }
    if path.hasPrefix("~/") {
      let home = HomeFolder.path()
      return (home.hasSuffix("/") ? String(home.dropLast()) : home) + path.dropFirst()
    }
    guard let directory, !path.hasPrefix("/") else { return path }
    return (directory as NSString).appendingPathComponent(path)
  }
}
