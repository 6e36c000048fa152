import Foundation
import SNMWire

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The few POSIX file operations snm's own files need (the session store, the history, the schema
/// cache), each returning a failure reason (`strerror` text) instead of throwing.
///
/// ```swift
/// if FileIO.makeDirectory(directory) == nil { _ = FileIO.writeAtomically(data, to: path) }
/// ```
public enum FileIO {
  /// The file's bytes; nil when it does not exist; a reason when it cannot be read.
  static func read(_ path: String) -> Result<Data?, FileIOFailure> {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else {
      return errno == ENOENT ? .success(nil) : .failure(FileIOFailure(errorText(errno)))
    }
    defer { close(fd) }
    var data = Data()
    var buffer = [UInt8](repeating: 0, count: 16_384)
    // A session file holds its tokens: the read's room is zeroed when done.
    defer { WipedMemory.zero(&buffer) }
    while true {
      let count = buffer.withUnsafeMutableBytes { posixRead(fd, $0.baseAddress, $0.count) }
      if count < 0 {
        if errno == EINTR { continue }
        return .failure(FileIOFailure(errorText(errno)))
      }
      if count == 0 { return .success(data) }
      data.append(contentsOf: buffer[0..<count])
      if data.count > 1 << 20 { return .failure(FileIOFailure("larger than 1 MiB")) }
    }
  }

  /// Creates `path` (and its parents) as 0700; nil on success, else the reason. A folder another
  /// account may write in is refused (``RefusedFolder``, which says so once).
  public static func makeDirectory(_ path: String) -> String? {
    var prefix = path.hasPrefix("/") ? "" : "."
    for component in path.split(separator: "/") {
      prefix += "/" + component
      if mkdir(prefix, 0o700) != 0 && errno != EEXIST {
        return "cannot create \(prefix): " + errorText(errno)
      }
    }
    var info = stat()
    guard stat(path, &info) == 0 else { return "cannot create \(path): " + errorText(errno) }
    guard info.st_mode & S_IFMT == S_IFDIR else { return "\(path) is not a directory" }
    return RefusedFolder.refuses(path) ? "refusing \(path): others may write in it" : nil
  }

  /// Why `path`, a folder of snm's own (sessions, history, cached schemas), must not be used:
  /// another account may write in it (not this user's, or writable by its group or others), so
  /// could plant a session of its own or swap a cached schema (`others may write in it (mode
  /// 777)`). Nil when it is private or missing.
  public static func problem(ofPrivate path: String) -> String? {
    PrivateFolder.problem(path, owner: { "uid \($0)" })
      ?? PrivateFolder.swappable(path, owner: { "uid \($0)" })
  }

  /// What to do about `path`'s ``problem(ofPrivate:)``: when its own owner or mode is the
  /// problem, `chmod go-w PATH`; when a folder above it is (``PrivateFolder/swappable``, which
  /// names it), closing `path` changes nothing, so the advice is that folder's or another place,
  /// `elsewhere` (`XDG_STATE_HOME`).
  public static func advice(forPrivate path: String, elsewhere: String) -> String {
    if PrivateFolder.problem(path, owner: { "uid \($0)" }) != nil {
      return "Make it yours and closed to others: chmod go-w \(VisibleTextLine.escaped(path))"
    }
    return "Close the folder named to others (chmod go-w, or the sticky bit /tmp has: chmod +t), "
      + "or keep snm's files in a folder of yours (\(elsewhere))"
  }

  /// Writes `data` to a new 0600 file beside `path`, syncs it, and renames it over `path`.
  /// On any failure the temporary file is removed and `path` is untouched.
  public static func writeAtomically(_ data: Data, to path: String) -> String? {
    let temporary = path + ".\(getpid()).\(UInt32.random(in: .min ... .max)).tmp"
    let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard fd >= 0 else { return errorText(errno) }
    var failure = FileDescriptorIO.writeAll(fd, data).map(errorText)
    if failure == nil, fchmod(fd, 0o600) != 0 { failure = errorText(errno) }
    if failure == nil, fsync(fd) != 0 { failure = errorText(errno) }
    if close(fd) != 0, failure == nil { failure = errorText(errno) }
    if failure == nil, rename(temporary, path) != 0 { failure = errorText(errno) }
    if failure != nil { unlink(temporary) }
    return failure
  }

  /// FNV-1a, 64 bits, of `text`'s UTF-8: stable across runs (unlike `Hasher`), for file names
  /// that must be the same in the next process.
  public static func stableHash(_ text: String) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in text.utf8 {
      hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
    }
    return hash
  }

  /// `stableHash(text)` as 16 hex digits.
  public static func stableHashHex(_ text: String) -> String {
    let hex = String(stableHash(text), radix: 16)
    return String(repeating: "0", count: 16 - hex.count) + hex
  }

  /// `strerror(code)` in lower case, as snm's messages print it ("no space left on device").
  public static func errorText(_ code: Int32) -> String {
    FileDescriptorIO.reason(code)
  }
}

private func posixRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
  read(fd, buffer, count)
}

/// A file operation's failure reason.
struct FileIOFailure: Error {
  let reason: String
  init(_ reason: String) { self.reason = reason }
}
