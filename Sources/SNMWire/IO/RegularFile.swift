import Foundation

/// A file snm reads as data (`insert file`, `insert csv`, `storage upload`): opened without
/// waiting, since `open(2)` of a FIFO nobody writes waits for a writer forever, deaf to Ctrl-C,
/// and taken only when it is a regular file, whose size is known. A FIFO, a device (`/dev/zero`
/// never ends, `/dev/null` holds nothing), a socket or a directory is refused, named for what it
/// is.
///
/// ```swift
/// switch RegularFile.open("dogs.json") {
/// case .success(let file): defer { close(file.fd) } ...   // file.size bytes
/// case .failure(let refusal): print(refusal.reason)  // "it is a FIFO (a named pipe), not a regular file"
/// }
/// ```
package struct RegularFile: Sendable {
  /// The open descriptor (blocking reads are not asked for: a regular file never waits).
  package let fd: Int32
  /// Its size when opened.
  package let size: Int64

  /// `path` opened for reading, or why not: `no such file`, `it is a socket, not a regular
  /// file`, or what `open(2)` said (`permission denied`).
  package static func open(_ path: String) -> Result<RegularFile, RegularFileRefusal> {
    let fd = systemOpen(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
    guard fd >= 0 else {
      let code = errno
      var info = stat()
      // A socket cannot be opened (ENXIO): it is said as what it is.
      if code == ENXIO, stat(path, &info) == 0, info.st_mode & S_IFMT != S_IFREG {
        return .failure(RegularFileRefusal(mode: info.st_mode))
      }
      return .failure(RegularFileRefusal(errno: code))
    }
    var info = stat()
    guard fstat(fd, &info) == 0 else {
      let code = errno
      close(fd)
      return .failure(RegularFileRefusal(errno: code))
    }
    guard info.st_mode & S_IFMT == S_IFREG else {
      close(fd)
      return .failure(RegularFileRefusal(mode: info.st_mode))
    }
    return .success(RegularFile(fd: fd, size: Int64(info.st_size)))
  }

  /// Why `path` cannot be read as a regular file (``open(_:)``, closed again at once); nil when
  /// it can.
  package static func problem(_ path: String) -> String? {
    switch open(path) {
    case .success(let file):
      close(file.fd)
      return nil
    case .failure(let refusal): return refusal.reason
    }
  }

  /// The bytes of the regular file at `path`, or why it cannot be read (``open(_:)``): a FIFO, a
  /// device, a socket or a directory is named for what it is, never waited on or read without end.
  package static func contents(_ path: String) -> Result<Data, RegularFileRefusal> {
    let file: RegularFile
    switch open(path) {
    case .success(let opened): file = opened
    case .failure(let refusal): return .failure(refusal)
    }
    defer { systemClose(file.fd) }
    var data = Data(capacity: Int(clamping: file.size))
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
      let count = buffer.withUnsafeMutableBytes { systemRead(file.fd, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      if count < 0 { return .failure(RegularFileRefusal(errno: errno)) }
      if count == 0 { return .success(data) }
      data.append(contentsOf: buffer[0..<count])
    }
  }

  /// What a file of `mode` is, as a message names it: `a FIFO (a named pipe)`.
  package static func kind(ofMode mode: mode_t) -> String {
    switch mode & S_IFMT {
    case S_IFREG: "a regular file"
    case S_IFDIR: "a directory"
    case S_IFIFO: "a FIFO (a named pipe)"
    case S_IFCHR: "a character device"
    case S_IFBLK: "a block device"
    case S_IFSOCK: "a socket"
    case S_IFLNK: "a symbolic link"
    default: "not a regular file"
    }
  }
}

/// Why a file was not read as data: in words, without the path (the message around it names it).
package struct RegularFileRefusal: Error, Sendable, Equatable {
  package let reason: String
  /// Whether there is no file at all (`no such file`).
  package let isMissing: Bool

  package init(errno code: Int32) {
    reason = code == ENOENT ? "no such file" : FileDescriptorIO.reason(code)
    isMissing = code == ENOENT
  }

  init(mode: mode_t) {
    reason = "it is \(RegularFile.kind(ofMode: mode)), not a regular file"
    isMissing = false
  }
}

private func systemOpen(_ path: String, _ flags: Int32) -> Int32 {
  open(path, flags)
}

private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
  read(fd, buffer, count)
}

private func systemClose(_ fd: Int32) {
  close(fd)
}
