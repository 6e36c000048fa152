import Foundation
import SNMQuery
import Synchronization

/// Reads script files, and the files their `run` statements name, each read once for a check
/// and its run (a `run` reads a regular file again when it runs: ``current(_:)``).
///
/// ```swift
/// let loader = ScriptLoader()
/// let source = try loader.load("smoke/pair.snm")               // its text, not yet parsed
/// var parser = Parser(source)                                  // a statement at a time
/// let other = loader.resolve("lib/login.snm", from: "smoke/pair.snm")   // "smoke/lib/login.snm"
/// ```
/// `load` throws `ScriptLoadError` for a file that cannot be read, is larger than a script may be
/// (``maximumBytes``) or is not UTF-8 text. Files are kept as text, never as syntax trees: a
/// checker or runner parses one statement at a time, so a long file costs its text and its
/// longest statement.
public final class ScriptLoader: Sendable {
  private let cache = Mutex<[String: Source]>([:])

  public init() {}

  /// The script at `path` (as named: relative to the working directory or absolute; `-`:
  /// standard input, read once, named `stdin` in diagnostics).
  /// - Throws: `ScriptLoadError` (ScriptLoader+Reading.swift reads it).
  public func load(_ path: String) throws(ScriptLoadError) -> Source {
    let key = path == "-" ? path : Self.identity(of: path)
    if let cached = cache.withLock({ $0[key] }) { return cached }
    let source = try Self.source(of: try Self.contents(of: path), path: path)
    cache.withLock { $0[key] = source }
    return source
  }

  /// The script at `path` as it is now, for the `run` that runs it, as psql's `\i` reads its
  /// file when it runs: a regular file read before (for the script's check) is read again, since
  /// a statement run since may have written it (`\o gen.snm` ... `run gen.snm`, or the file a
  /// run before left); standard input, a pipe or a FIFO is the text read the one time it can be.
  /// The run checks what it gets. A file not read before is read as ``load(_:)`` reads it.
  /// - Throws: `ScriptLoadError`: a file gone since, or no longer readable, says so.
  public func current(_ path: String) throws(ScriptLoadError) -> Source {
    let key = path == "-" ? path : Self.identity(of: path)
    guard path != "-", let cached = cache.withLock({ $0[key] }) else { return try load(path) }
    var info = stat()
    if stat(path, &info) == 0, info.st_mode & S_IFMT != S_IFREG { return cached }
    let source = try Self.source(of: try Self.contents(of: path), path: path)
    cache.withLock { $0[key] = source }
    return source
  }

  /// The script at `path` when it has been read already (nothing is opened): nil when not, or
  /// when reading it failed.
  public func loaded(_ path: String) -> Source? {
    let key = path == "-" ? path : Self.identity(of: path)
    return cache.withLock { $0[key] }
  }

  /// The text of the file `path` read as `bytes`: its bytes as they are when they are UTF-8 (a
  /// byte order mark first left out, as `String(data:encoding:)` leaves it), checked without
  /// making a String; else what `String(data:encoding:)` makes of them, or `.notText`.
  static func source(of bytes: [UInt8], path: String) throws(ScriptLoadError) -> Source {
    let name = path == "-" ? "stdin" : path
    var text = bytes
    if text.count >= 3 && text[0] == 0xEF && text[1] == 0xBB && text[2] == 0xBF {
      text.removeFirst(3)
    }
    if let source = Source(validUTF8: text, fileName: name) { return source }
    guard let decoded = String(data: Data(bytes), encoding: .utf8) else { throw .notText(path) }
    return Source(text: decoded, fileName: name)
  }

  /// The path `run target` names, written in the file `including` (nil: from `-c`, standard input
  /// or the prompt, relative to the working directory), as every statement's local file is
  /// (``LocalPath``: `~/` at the start is the home folder; `/` is the folder of a script at `/`).
  public static func resolve(_ target: String, from including: String?) -> String {
    normalize(
      LocalPath.resolve(target, directory: including.flatMap(ScriptRunner.folder(ofScript:))))
  }

  /// `a/./b/../c.snm` as `a/c.snm`: the same file, written the short way (`..` at the start stays).
  public static func normalize(_ path: String) -> String {
    let absolute = path.hasPrefix("/")
    var parts: [Substring] = []
    for part in path.split(separator: "/", omittingEmptySubsequences: true) {
      if part == "." { continue }
      if part == "..", let last = parts.last, last != ".." {
        parts.removeLast()
        continue
      }
      if part == "..", absolute { continue }
      parts.append(part)
    }
    let joined = parts.joined(separator: "/")
    if absolute { return "/" + joined }
    return joined.isEmpty ? "." : joined
  }

  /// One name per file however it is reached (absolute, symbolic links resolved), for the cache
  /// and for finding `run` cycles.
  public static func identity(of path: String) -> String {
    URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
  }
}
