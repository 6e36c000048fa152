import Foundation
import SNMQuery
import Synchronization

/// Reads script files, and the files their `run` statements name, each read once.
///
/// ```swift
/// let loader = ScriptLoader()
/// let source = try loader.load("smoke/pair.snm")               // its text, not yet parsed
/// var parser = Parser(source)                                  // a statement at a time
/// let other = loader.resolve("lib/login.snm", from: "smoke/pair.snm")   // "smoke/lib/login.snm"
/// ```
/// `load` throws `ScriptLoadError` for a file that cannot be read or is not UTF-8 text. Files are
/// kept as text, never as syntax trees: a checker or runner parses one statement at a time, so a
/// long file costs its text and its longest statement.
public final class ScriptLoader: Sendable {
  private let cache = Mutex<[String: Source]>([:])

  public init() {}

  /// The script at `path` (as named: relative to the working directory or absolute).
  /// - Throws: `ScriptLoadError`.
  public func load(_ path: String) throws(ScriptLoadError) -> Source {
    let key = Self.identity(of: path)
    if let cached = cache.withLock({ $0[key] }) { return cached }
    if let problem = Self.problem(reading: path) { throw problem }
    guard let bytes = Self.contents(of: path) else { throw .unreadable(path) }
    let source = try Self.source(of: bytes, path: path)
    cache.withLock { $0[key] = source }
    return source
  }

  /// The text of the file `path` read as `bytes`: its bytes as they are when they are UTF-8 (a
  /// byte order mark first left out, as `String(data:encoding:)` leaves it), checked without
  /// making a String; else what `String(data:encoding:)` makes of them, or `.notText`.
  static func source(of bytes: [UInt8], path: String) throws(ScriptLoadError) -> Source {
    var text = bytes
    if text.count >= 3 && text[0] == 0xEF && text[1] == 0xBB && text[2] == 0xBF {
      text.removeFirst(3)
    }
    if let source = Source(validUTF8: text, fileName: path) { return source }
    guard let decoded = String(data: Data(bytes), encoding: .utf8) else { throw .notText(path) }
    return Source(text: decoded, fileName: path)
  }

  /// The bytes of the file at `path`, read by `read(2)` into the array that keeps them: through
  /// `Data` they were copied once more, which callgrind counts as an instruction a byte (`snm
  /// check`: ~95 a statement). Nil when it cannot be opened or read. A pipe or a device
  /// (`/dev/stdin`, `<(...)`, `/dev/null`) is read the same way to its end: `FileManager` gave nil
  /// for them, which was said as "cannot read".
  static func contents(of path: String) -> [UInt8]? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0, info.st_mode & S_IFMT != S_IFDIR else { return nil }
    let size = info.st_mode & S_IFMT == S_IFREG ? max(Int(info.st_size), 0) : 0
    var bytes: [UInt8] = []
    var first = true
    var ended = false
    var failed = false
    while !ended && !failed {
      // The whole file in the first read, with a byte of room more so that its end is seen; a
      // file that grew goes on in more.
      let room = first ? size + 1 : 65_536
      let chunk = [UInt8](unsafeUninitializedCapacity: room) { buffer, initialized in
        while initialized < room {
          let got = read(fd, buffer.baseAddress.unsafelyUnwrapped + initialized, room - initialized)
          if got > 0 {
            initialized += got
          } else if got == 0 {
            ended = true
            return
          } else if errno != EINTR {
            failed = true
            return
          }
        }
      }
      if first { bytes = chunk } else { bytes += chunk }
      first = false
    }
    return failed ? nil : bytes
  }

  /// Why the script at `path` cannot be read (missing, a directory, not readable), found without
  /// reading it; nil when it can be. What `load` checks first, for callers that must refuse a
  /// script before doing anything else (`snm FILE` starts no project for a mistyped name).
  public static func problem(reading path: String) -> ScriptLoadError? {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      return .notFound(path)
    }
    if isDirectory.boolValue { return .isDirectory(path) }
    return FileManager.default.isReadableFile(atPath: path) ? nil : .unreadable(path)
  }

  /// The path `run target` names, written in the file `including` (nil: from `-c`, standard input
  /// or the prompt, relative to the working directory).
  public static func resolve(_ target: String, from including: String?) -> String {
    if target.hasPrefix("/") { return normalize(target) }
    guard let including, let slash = including.lastIndex(of: "/") else {
      return normalize(target)
    }
    return normalize(String(including[...slash]) + target)
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

/// Why a script file could not be read.
public enum ScriptLoadError: Error, Sendable, Equatable, CustomStringConvertible {
  case notFound(String)
  case isDirectory(String)
  case unreadable(String)
  case notText(String)

  public var description: String {
    switch self {
    case .notFound(let path): "no such file '\(path)'"
    case .isDirectory(let path): "'\(path)' is a directory; name a .snm file"
    case .unreadable(let path): "cannot read '\(path)' (permission denied?)"
    case .notText(let path): "'\(path)' is not UTF-8 text"
    }
  }
}
