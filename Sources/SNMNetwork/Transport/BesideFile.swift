import Foundation
import SNMWire

#if canImport(Glibc)
  import Glibc
#endif

/// A file written beside its destination and renamed over it once whole, removed otherwise, so
/// the destination is never half written: a download (``TransportRequest/responseFile``), the
/// rows of `> 'out.csv'`, an answer's body after `invoke ... > 'file'`, `snm gen --out`.
///
/// The stand-in gets a name no one can guess (`.out.csv.snm-<random>.part`) and is made with
/// `O_EXCL`, so a file or a symbolic link another user of the machine planted in a shared folder
/// is never opened, written through or renamed into place. The file keeps the permissions of the
/// regular file it replaces (a 0600 file stays 0600; a symbolic link there is replaced, not
/// followed), and a new one is made 0600 (what is written may be private) unless `newFileMode`
/// is nil: then the umask decides, as for any new file.
///
/// ```swift
/// let file = try BesideFile(destination: "out.jpg")
/// try file.write(bytes)
/// try file.finish()      // out.jpg now holds every byte
/// ```
public final class BesideFile {
  public let destination: String
  let temporary: String
  /// The stand-in's descriptor, for a writer of its own (closed by ``finish()`` or ``abandon()``).
  public let fd: Int32
  /// The bytes ``write(_:)`` wrote.
  public private(set) var bytes: Int64 = 0
  private var done = false

  public init(destination: String, newFileMode: mode_t? = 0o600) throws(TransportFileError) {
    let folder = (destination as NSString).deletingLastPathComponent
    let name = (destination as NSString).lastPathComponent
    let random = UInt64.random(in: 0...UInt64.max)
    temporary =
      (folder.isEmpty ? "" : folder + "/") + ".\(name).snm-\(String(random, radix: 36)).part"
    var existing = stat()
    let mode =
      lstat(destination, &existing) == 0 && (existing.st_mode & S_IFMT) == S_IFREG
      ? existing.st_mode & 0o7777 : newFileMode
    let fd = open(
      temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode == nil ? 0o666 : 0o600)
    guard fd >= 0 else { throw TransportFileError(path: destination, call: "create") }
    // Exactly the mode, whatever the umask (which may only take bits away).
    if let mode, fchmod(fd, mode) != 0 {
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
  public func write(_ buffer: UnsafeRawBufferPointer) throws(TransportFileError) {
    if let failed = FileDescriptorIO.writeAll(fd, buffer) {
      errno = failed
      let failure = TransportFileError(path: destination, call: "write")
      abandon()
      throw failure
    }
    bytes += Int64(buffer.count)
  }

  /// Appends `contents` (``write(_:)``).
  public func write(contentsOf contents: some ContiguousBytes) throws(TransportFileError) {
    let failure = contents.withUnsafeBytes { buffer -> TransportFileError? in
      do throws(TransportFileError) {
        try write(buffer)
        return nil
      } catch {
        return error
      }
    }
    if let failure { throw failure }
  }

  /// Flushes the file to disk and renames it to the destination.
  public func finish() throws(TransportFileError) {
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
  public func abandon() {
    guard !done else { return }
    done = true
    Glibc.close(fd)
    unlink(temporary)
  }
}
