import Foundation
import SNMWire

#if canImport(Glibc)
  import Glibc
#endif

/// A request body read from a file as it is sent (``TransportRequest/bodyFile``): its
/// descriptor and its size, which is the `Content-Length`.
///
/// ```swift
/// let file = try RequestBodyFile(path: "bori.jpg", url: url)
/// file.length   // 48213
/// ```
/// Throws ``TransportFileError`` (which file, what failed, why) when it cannot be opened.
final class RequestBodyFile: Sendable {
  let path: String
  let fd: Int32
  let length: Int64

  init(path: String) throws(TransportFileError) {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { throw TransportFileError(path: path, call: "open") }
    var info = stat()
    guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
      Glibc.close(fd)
      throw TransportFileError(path: path, call: "open", reason: "not a regular file")
    }
    self.path = path
    self.fd = fd
    self.length = Int64(info.st_size)
  }

  deinit { Glibc.close(fd) }

  /// Up to `buffer.count` bytes from `offset` (without moving the descriptor's position); 0 at
  /// the end.
  func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) -> Int {
    while true {
      let count = pread(fd, buffer.baseAddress, buffer.count, off_t(offset))
      if count < 0 && errno == EINTR { continue }
      return count
    }
  }
}

/// A response body written to disk as it arrives (``TransportRequest/responseFile``): into a
/// temporary file beside the destination, renamed over it once whole, removed otherwise, so the
/// destination is never half written. The file keeps the permissions of the one it replaces
/// (a 0600 file stays 0600), and a new one is made 0600: what is downloaded may be private.
///
/// ```swift
/// let writer = try ResponseFileWriter(destination: "out.jpg")
/// try writer.write(bytes)
/// try writer.finish()      // out.jpg now holds every byte
/// ```
final class ResponseFileWriter {
  let destination: String
  let temporary: String
  private let fd: Int32
  private(set) var bytes: Int64 = 0
  private var done = false

  init(destination: String) throws(TransportFileError) {
    let folder = (destination as NSString).deletingLastPathComponent
    let name = (destination as NSString).lastPathComponent
    let random = UInt64.random(in: 0...UInt64.max)
    temporary =
      (folder.isEmpty ? "" : folder + "/") + ".\(name).snm-\(String(random, radix: 36)).part"
    var existing = stat()
    let mode =
      stat(destination, &existing) == 0 && (existing.st_mode & S_IFMT) == S_IFREG
      ? existing.st_mode & 0o7777 : 0o600
    let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard fd >= 0 else { throw TransportFileError(path: destination, call: "create") }
    // Exactly the mode, whatever the umask (which may only take bits away).
    guard fchmod(fd, mode) == 0 else {
      let failure = TransportFileError(path: destination, call: "create")
      Glibc.close(fd)
      unlink(temporary)
      throw failure
    }
    self.destination = destination
    self.fd = fd
  }

  deinit { abandon() }

  /// Appends `buffer`; a failed write (the disk full) throws, and the file is removed.
  func write(_ buffer: UnsafeRawBufferPointer) throws(TransportFileError) {
    if let failed = FileDescriptorIO.writeAll(fd, buffer) {
      errno = failed
      let failure = TransportFileError(path: destination, call: "write")
      abandon()
      throw failure
    }
    bytes += Int64(buffer.count)
  }

  /// Flushes the file and renames it to the destination.
  func finish() throws(TransportFileError) {
    guard !done else { return }
    done = true
    defer { Glibc.close(fd) }
    guard fsync(fd) == 0 else {
      let failure = TransportFileError(path: destination, call: "write")
      unlink(temporary)
      throw failure
    }
    guard rename(temporary, destination) == 0 else {
      let failure = TransportFileError(path: destination, call: "rename")
      unlink(temporary)
      throw failure
    }
  }

  /// Removes the temporary file (the destination is untouched).
  func abandon() {
    guard !done else { return }
    done = true
    Glibc.close(fd)
    unlink(temporary)
  }
}

/// A local file a transfer could not read or write: which, what failed and why (errno's words).
public struct TransportFileError: Error, Sendable, Hashable, CustomStringConvertible {
  public let path: String
  public let call: String
  public let reason: String

  init(path: String, call: String, reason: String? = nil) {
    self.path = path
    self.call = call
    self.reason = reason ?? String(cString: strerror(errno))
  }

  /// `cannot write 'out.jpg': No space left on device`.
  public var description: String { "cannot \(call) '\(path)': \(reason)" }
}
