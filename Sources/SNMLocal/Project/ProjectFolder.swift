import Foundation
import SNMWire

/// A repository laid out for the Supabase CLI: a folder holding `supabase/` (`config.toml`,
/// `migrations/*.sql`, `seed.sql`, `functions/<name>/`).
///
/// ```swift
/// if let folder = try ProjectFolder.find(given: nil, in: FileManager.default.currentDirectoryPath) {
///   options.dataDir = folder.defaultDataDir()
/// }
/// ```
struct ProjectFolder: Sendable, Equatable {
  /// The folder holding `supabase/`, absolute.
  var root: String

  var supabaseDir: String { root + "/supabase" }
  var configFile: String { supabaseDir + "/config.toml" }
  var migrationsDir: String { supabaseDir + "/migrations" }
  var functionsDir: String { supabaseDir + "/functions" }

  /// `supabase/config.toml` as messages name it: relative to the current folder when inside it.
  var configFileShown: String { Self.shown(configFile) }

  /// `--project DIR` (which must hold `supabase/`), else the current folder when it holds one;
  /// nil when neither names a project folder.
  ///
  /// - Throws: `LocalProjectError` (usage) when `given` holds no `supabase/` folder.
  static func find(given: String?, in current: String) throws(LocalProjectError)
    -> ProjectFolder?
  {
    if let given {
      guard isDirectory(given + "/supabase") else {
        let hint =
          (given as NSString).lastPathComponent == "supabase" && isDirectory(given)
          ? ": give the folder that holds it, \((given as NSString).deletingLastPathComponent)"
          : ""
        throw LocalProjectError(
          .usage, "option '--project': \(given) holds no supabase/ folder\(hint)")
      }
      return ProjectFolder(root: given)
    }
    return isDirectory(current + "/supabase") ? ProjectFolder(root: current) : nil
  }

  /// Where this folder's local project keeps its data when no `--dir` is given:
  /// `$XDG_DATA_HOME/snm/projects/<folder name>-<8 hex digits of its path>` (else under
  /// `~/.local/share`), outside the repository, one per folder.
  func defaultDataDir() -> String {
    let base = (LocalProjectOptions.defaultDataDir() as NSString).deletingLastPathComponent
    var name = String(
      (root as NSString).lastPathComponent.map { character in
        character.isASCII && (character.isLetter || character.isNumber || "-_.".contains(character))
          ? character : "_"
      }.prefix(40))
    if name.isEmpty || name.hasPrefix(".") { name = "project" + name }
    return base + "/projects/\(name)-\(Self.pathHash(root))"
  }

  /// FNV-1a of the path, 8 hex digits: stable across runs and machines.
  static func pathHash(_ path: String) -> String {
    var hash: UInt32 = 0x811C_9DC5
    for byte in path.utf8 {
      hash ^= UInt32(byte)
      hash = hash &* 0x0100_0193
    }
    let digits = String(hash, radix: 16)
    return String(repeating: "0", count: 8 - digits.count) + digits
  }

  /// A path of config.toml (`./seed.sql`, `../keys.json`) as an absolute one: relative paths
  /// are relative to `supabase/`, as the Supabase CLI reads them.
  func resolved(_ path: String) -> String {
    if path.hasPrefix("/") { return path }
    var parts = supabaseDir.split(separator: "/").map(String.init)
    for part in path.split(separator: "/").map(String.init) where part != "." {
      if part == ".." {
        if !parts.isEmpty { parts.removeLast() }
      } else {
        parts.append(part)
      }
    }
    return "/" + parts.joined(separator: "/")
  }

  static func isFile(_ path: String) -> Bool {
    var isDirectory: ObjCBool = false
    return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
      && !isDirectory.boolValue
  }

  static func isDirectory(_ path: String) -> Bool {
    var isDirectory: ObjCBool = false
    return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
      && isDirectory.boolValue
  }

  /// `path` relative to the current folder when it is inside it, every character a reader must
  /// not be shown raw (SNMWire's one walk, `VisibleTextLine`: controls, U+202E and the other
  /// invisible format characters) as its escape (`\u{202E}`): a folder's name is anyone's text,
  /// and a message holding it may go anywhere (a TOML error's `file:line:column`, a note).
  static func shown(_ path: String) -> String {
    let current = FileManager.default.currentDirectoryPath
    let relative = path.hasPrefix(current + "/") ? String(path.dropFirst(current.count + 1)) : path
    return VisibleTextLine.escaped(relative)
  }
}
