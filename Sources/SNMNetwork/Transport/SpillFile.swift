import Foundation
import SNMWire

#if canImport(Glibc)
  import Glibc
#endif

/// The temporary file a spilled answer's body is written to (``BodySpill``): made `0600` in a
/// folder with no name (`O_TMPFILE`), so that only its descriptor reaches it, no other user sees
/// it by a name, and nothing is left once that closes, a crash included. Where the kernel or the
/// folder's filesystem cannot make a file without a name (`EOPNOTSUPP`, `EISDIR`, `EINVAL`), it
/// is made with `mkstemp` and unlinked at once (``named``: a name for that moment).
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

  /// Whether the file had a name for a moment (`mkstemp`'s, the fallback), not none at all.
  let named: Bool

  /// A file in `directory`, made without a name where the filesystem can (`nameless` false: as
  /// where it cannot, for tests of that path).
  init(directory: String, nameless: Bool = true) throws(TransportFileError) {
    var fd: Int32 = -1
    if nameless {
      // 0600 as asked (the umask only takes bits away); O_EXCL: never linked into the folder.
      fd = open(directory, Self.tmpfile | O_RDWR | O_EXCL | O_CLOEXEC, 0o600)
      // Only a kernel or a filesystem that cannot (an old kernel opens the folder: EISDIR)
      // falls back; no such folder, no room, no right to write there fail here.
      if fd < 0, errno != EOPNOTSUPP, errno != EISDIR, errno != EINVAL {
        throw Self.failure(in: directory, "make a temporary file for the answer in")
      }
    }
    named = fd < 0
    // The fallback's name when it could not be removed (the file is then closed, empty).
    var kept: String?
    if fd < 0 {
      var template = Array("\(directory)/snm-answer-XXXXXX".utf8CString)
      fd = template.withUnsafeMutableBufferPointer { name -> Int32 in
        guard let start = name.baseAddress else { return -1 }
        // mkstemp makes the file 0600, whatever the umask.
        let fd = mkstemp(start)
        guard fd >= 0 else { return fd }
        // A name that cannot go (an append-only folder) takes no byte of the answer.
        guard unlink(start) == 0 else {
          let failed = errno
          Glibc.close(fd)
          kept = String(cString: start)
          errno = failed
          return -1
        }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        return fd
      }
    }
    guard fd >= 0 else {
      guard let kept else {
        throw Self.failure(in: directory, "make a temporary file for the answer in")
      }
      // Named so that it can be removed by hand; nothing of the answer was written to it.
      throw Self.failure(in: kept, "remove the name of the empty temporary file")
    }
    self.directory = directory
    self.fd = fd
  }

  /// `O_TMPFILE` (`<bits/fcntl-linux.h>`, which Swift's Glibc does not bring: it needs
  /// `_GNU_SOURCE`): `__O_TMPFILE`, 020000000 on x86-64 and AArch64, with `O_DIRECTORY`.
  static let tmpfile: Int32 = 0o20_000_000 | O_DIRECTORY

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

  /// Takes back what a failed ``write(_:)`` put past the bytes written (a full disk keeps none
  /// of it): the file ends, and the next write starts, where the last whole one ended.
  func dropPartialWrite() {
    _ = ftruncate(fd, off_t(bytes))
    _ = lseek(fd, off_t(bytes), SEEK_SET)
  }

  /// Fills `room` with the file's bytes from `offset` on (`pread`, across short reads and
  /// interrupted calls); throws when they cannot be read or the file ends first.
  func read(into room: UnsafeMutableRawBufferPointer, at offset: Int) throws(TransportFileError) {
    guard let start = room.baseAddress else { return }
    var done = 0
    while done < room.count {
      let got = pread(fd, start + done, room.count - done, off_t(offset + done))
      if got > 0 {
        done += got
      } else if got < 0 && errno == EINTR {
        continue
      } else {
        if got == 0 { errno = EIO }
        throw Self.failure(in: directory, "read the answer's temporary file in")
      }
    }
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
