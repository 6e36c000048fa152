import Foundation
import SNMGateway
import SNMWire
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// Where object bytes live: `<data dir>/storage/objects/<xx>/<version>`, one file per version,
/// named by the row's `version` (a UUID), never by the object's name. Uploads are written to
/// `tmp/`, flushed, then renamed into place, so no reader ever sees part of a file, and a crash
/// leaves at most a temporary file or an unreferenced version, which the next gateway removes
/// (`sweepTemporary` before it serves, `sweep` in the background).
///
/// ```swift
/// let files = try StorageFiles(root: dataDir + "/storage")
/// let upload = try files.temporary()          // write the bytes, then:
/// try files.commit(upload, version: version)  // the object's file, whole
/// ```
/// Throws `StorageFailure` (an internal error naming the failing call and errno).
package final class StorageFiles: Sendable {
  let root: String

  init(root: String) throws(StorageFailure) {
    self.root = root
    for directory in [root, root + "/objects", root + "/tmp"] {
      if mkdir(directory, 0o700) != 0 && errno != EEXIST {
        throw Self.failure("mkdir \(directory)")
      }
    }
  }

  /// The file of one version.
  func path(version: String) -> String {
    root + "/objects/" + String(version.prefix(2)) + "/" + version
  }

  /// A new empty temporary file, open for writing (0600).
  func temporary() throws(StorageFailure) -> StorageTemporaryFile {
    for _ in 0..<8 {
      let name = root + "/tmp/" + Self.newVersion() + ".part"
      let fd = open(name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
      if fd >= 0 { return StorageTemporaryFile(path: name, fd: fd) }
      if errno != EEXIST { throw Self.failure("open \(name)") }
    }
    throw Self.failure("open a temporary file")
  }

  /// Flushes `file` to disk and renames it to `version`'s place (then flushes that folder), so
  /// the version's file is there whole or not at all. Closes the file.
  func commit(_ file: StorageTemporaryFile, version: String) throws(StorageFailure) {
    defer { file.discard() }
    guard fsync(file.fd) == 0 else { throw Self.failure("fsync") }
    let target = path(version: version)
    let folder = String(target[..<(target.lastIndex(of: "/") ?? target.endIndex)])
    if mkdir(folder, 0o700) != 0 && errno != EEXIST { throw Self.failure("mkdir \(folder)") }
    guard rename(file.path, target) == 0 else { throw Self.failure("rename") }
    file.markCommitted()
    let directory = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    if directory >= 0 {
      _ = fsync(directory)
      Glibc.close(directory)
    }
  }

  /// Copies `version`'s bytes into a new temporary file (for copy), in the kernel
  /// (`sendfile` between files), never through this process's memory.
  func duplicate(version: String) throws(StorageFailure) -> StorageTemporaryFile {
    let source = open(path(version: version), O_RDONLY | O_CLOEXEC)
    guard source >= 0 else { throw Self.failure("open version \(version)") }
    defer { Glibc.close(source) }
    let copy = try temporary()
    while true {
      let copied = sendfile(copy.fd, source, nil, 1 << 30)
      if copied == 0 { break }
      if copied < 0 {
        if errno == EINTR { continue }
        copy.discard()
        throw Self.failure("sendfile")
      }
    }
    return copy
  }

  /// Opens `version`'s file for reading; nil when it is not there.
  func openForReading(version: String) -> Int32? {
    let fd = open(path(version: version), O_RDONLY | O_CLOEXEC)
    return fd >= 0 ? fd : nil
  }

  /// Removes `version`'s file, if there.
  func remove(version: String) {
    guard !version.isEmpty, !version.contains("/") else { return }
    unlink(path(version: version))
  }

  /// Removes every temporary file: called before the gateway serves, when no upload of this
  /// process is in flight (one of a killed gateway never finishes).
  package func sweepTemporary() -> Int {
    var removed = 0
    for name in (try? FileManager.default.contentsOfDirectory(atPath: root + "/tmp")) ?? [] {
      if unlink(root + "/tmp/" + name) == 0 { removed += 1 }
    }
    return removed
  }

  /// Removes every version file not in `referenced` last written before `cutoff` (seconds since
  /// 1970: when this gateway started, less a second for the file system's coarser clock), so an
  /// upload of this gateway, whose file is renamed into place just before its row commits, keeps
  /// its own.
  func sweep(referenced: Set<String>, writtenBefore cutoff: Double) -> Int {
    var removed = 0
    let manager = FileManager.default
    for shard in (try? manager.contentsOfDirectory(atPath: root + "/objects")) ?? [] {
      let folder = root + "/objects/" + shard
      for name in (try? manager.contentsOfDirectory(atPath: folder)) ?? []
      where !referenced.contains(name) {
        var info = stat()
        guard stat(folder + "/" + name, &info) == 0 else { continue }
        let written = Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9
        if written < cutoff, unlink(folder + "/" + name) == 0 { removed += 1 }
      }
    }
    return removed
  }

  /// A new random version: a UUID v4 in lowercase.
  static func newVersion() -> String {
    var bytes = (try? Crypto.randomBytes(16)) ?? (0..<16).map { _ in UInt8.random(in: 0...255) }
    bytes[6] = (bytes[6] & 0x0f) | 0x40
    bytes[8] = (bytes[8] & 0x3f) | 0x80
    let hex = Crypto.hex(bytes)
    let characters = Array(hex)
    func part(_ range: Range<Int>) -> String { String(characters[range]) }
    return [part(0..<8), part(8..<12), part(12..<16), part(16..<20), part(20..<32)]
      .joined(separator: "-")
  }

  static func failure(_ call: String) -> StorageFailure {
    let reason = String(cString: strerror(errno))
    if errno == ENOSPC || errno == EDQUOT {
      return .internalError("the disk is full (\(call): \(reason))")
    }
    return .internalError("\(call) failed: \(reason)")
  }
}

/// An upload being written: a file in `tmp/` and its open descriptor. Written with `write`, then
/// committed by `StorageFiles.commit`, or discarded (also when it is released uncommitted).
final class StorageTemporaryFile: Sendable {
  let path: String
  let fd: Int32
  private let state = Mutex(State())

  private struct State {
    var bytes: Int64 = 0
    var closed = false
    var committed = false
  }

  init(path: String, fd: Int32) {
    self.path = path
    self.fd = fd
  }

  deinit { discard() }

  /// Bytes written so far.
  var bytes: Int64 { state.withLock { $0.bytes } }

  /// Appends `buffer`; throws on a failed write (a full disk among them).
  func write(_ buffer: UnsafeRawBufferPointer) throws(StorageFailure) {
    if let failed = FileDescriptorIO.writeAll(fd, buffer) {
      errno = failed
      throw StorageFiles.failure("write")
    }
    state.withLock { $0.bytes += Int64(buffer.count) }
  }

  /// Marks the file as renamed into place: it is no longer removed when released.
  func markCommitted() {
    state.withLock { $0.committed = true }
  }

  func close() {
    let wasOpen = state.withLock { state in
      defer { state.closed = true }
      return !state.closed
    }
    if wasOpen { Glibc.close(fd) }
  }

  /// Closes and, unless committed, removes the file (nothing of the upload is left).
  func discard() {
    close()
    if !state.withLock({ $0.committed }) { unlink(path) }
  }
}
