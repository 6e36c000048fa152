import Foundation
import SNMWire

#if canImport(Glibc)
  import Glibc
#endif

/// The temporary file a spilled answer's body is written to (``BodySpill``): made `0600` in a
/// folder and unlinked at once, so that only its descriptor reaches it and nothing is left once
/// that closes, a crash included.
///
/// ```swift
/// let file = try SpillFile(directory: "/tmp")
/// try file.write(bytes)
/// let body = try file.mapped()   // the file's pages; the file closes when `body` goes
/// ```
/// Throws ``TransportFileError`` naming the folder (`TMPDIR` chooses it) and why.
final class SpillFile {
  let directory: String
  private let fd: Int32
  /// The bytes written.
  private(set) var bytes = 0
  /// Whether the descriptor went with a mapping (which closes it).
  private var handedOver = false

  init(directory: String) throws(TransportFileError) {
    var template = Array("\(directory)/snm-answer-XXXXXX".utf8CString)
    let fd = template.withUnsafeMutableBufferPointer { name -> Int32 in
      guard let start = name.baseAddress else { return -1 }
      // mkstemp makes the file 0600, whatever the umask.
      let fd = mkstemp(start)
      if fd >= 0 {
        unlink(start)
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
      }
      return fd
    }
    guard fd >= 0 else {
      throw Self.failure(in: directory, "make a temporary file for the answer in")
    }
    self.directory = directory
    self.fd = fd
  }

  deinit {
    if !handedOver { Glibc.close(fd) }
  }

  /// Appends `bytes` (a full disk, or a file size limit: `EFBIG`, SIGXFSZ being ignored, throws).
  func write(_ bytes: some ContiguousBytes) throws(TransportFileError) {
    let (failed, count) = bytes.withUnsafeBytes { (FileDescriptorIO.writeAll(fd, $0), $0.count) }
    if let failed {
      errno = failed
      throw Self.failure(in: directory, "write the answer to a temporary file in")
    }
    self.bytes += count
  }

  /// The file's bytes as `Data` over its pages mapped read-only; the mapping and the file go
  /// when the `Data` does.
  func mapped() throws(TransportFileError) -> Data {
    guard bytes > 0 else { return Data() }
    let fd = self.fd
    guard let start = mmap(nil, bytes, PROT_READ, MAP_SHARED, fd, 0), start != MAP_FAILED else {
      throw Self.failure(in: directory, "map the answer's temporary file in")
    }
    handedOver = true
    return Data(
      bytesNoCopy: start, count: bytes,
      deallocator: .custom { start, count in
        munmap(start, count)
        Glibc.close(fd)
      })
  }

  /// `cannot write the answer to a temporary file in '/tmp': No space left on device (TMPDIR
  /// chooses the folder)`, errno's words.
  private static func failure(in directory: String, _ call: String) -> TransportFileError {
    TransportFileError(
      path: directory, call: call,
      reason: String(cString: strerror(errno)) + " (TMPDIR chooses the folder)")
  }
}
