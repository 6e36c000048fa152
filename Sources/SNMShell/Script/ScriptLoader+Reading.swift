import Foundation
import SNMWire

extension ScriptLoader {
  /// The most a script may be: 64 MiB, eight times the half million lines (7.7 MB) the memory
  /// tests check, about 4 million lines. A script is read whole and kept as text while it runs
  /// (the text and its longest statement: ~45 MB of memory for those 7.7 MB), so a file past this
  /// is data (rows to insert), not statements a person or a generator writes; a pipe or device
  /// that never ends (`snm check /dev/zero`) must stop somewhere, and this is where.
  public static let maximumBytes = 64 << 20

  /// The bytes of the file at `path` (`-`: standard input), read by `read(2)` into the array that
  /// keeps them: through `Data` they were copied once more, which callgrind counts as an
  /// instruction a byte (`snm check`: ~95 a statement).
  ///
  /// A regular file is read at once, its size known (past `limit`: refused unread). A pipe, a
  /// FIFO or a device (`/dev/stdin`, `<(...)`, `/dev/null`) is read to its end, up to `limit`,
  /// waiting in steps of 100 ms so that SIGINT or SIGTERM (`signals`) stops the wait with
  /// `.interrupted`: a FIFO is opened without waiting for its writer (`open(2)` would block
  /// until one came, deaf to Ctrl-C), then waited for; at a terminal, a note after a second says
  /// what snm waits for.
  /// - Throws: `ScriptLoadError`, with what the system said (`errno`) in words.
  static func contents(
    of path: String, limit: Int = maximumBytes, signals: InterruptSignals = .shared
  ) throws(ScriptLoadError) -> [UInt8] {
    let standardInput = path == "-"
    let fd = standardInput ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
    guard fd >= 0 else { throw failure(at: path, errno: errno) }
    defer { if !standardInput { close(fd) } }
    var info = stat()
    guard fstat(fd, &info) == 0 else { throw .unreadable(path, errno: errno) }
    switch info.st_mode & S_IFMT {
    case S_IFDIR: throw .isDirectory(path)
    case S_IFREG:
      return try readFile(fd, path: path, size: max(Int(info.st_size), 0), limit: limit)
    default:
      if !standardInput {
        let flags = fcntl(fd, F_GETFL)
        guard flags >= 0, fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) == 0 else {
          throw .unreadable(path, errno: errno)
        }
      }
      let fifo = !standardInput && info.st_mode & S_IFMT == S_IFIFO
      return try signals.watching { heard throws(ScriptLoadError) in
        try readStream(fd, path: path, fifo: fifo, limit: limit, heard: heard)
      }
    }
  }

  /// A regular file's bytes: the whole file in the first read, with a byte of room more so that
  /// its end is seen; a file that grew goes on in more, up to `limit`.
  private static func readFile(_ fd: Int32, path: String, size: Int, limit: Int)
    throws(ScriptLoadError) -> [UInt8]
  {
    if size > limit { throw .tooLarge(path, bytes: size, limit: limit) }
    var bytes: [UInt8] = []
    var first = true
    var ended = false
    var failure: Int32 = 0
    while !ended && failure == 0 {
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
            failure = errno
            return
          }
        }
      }
      if first { bytes = chunk } else { bytes += chunk }
      first = false
      if bytes.count > limit { throw .tooLarge(path, bytes: nil, limit: limit) }
    }
    if failure != 0 { throw .unreadable(path, errno: failure) }
    return bytes
  }

  /// A pipe's, FIFO's or device's bytes to its end, polled in steps of 100 ms: `heard` is looked
  /// at after each. A FIFO's writer has come once `poll(2)` says anything (Linux says nothing,
  /// not even a hang-up, until one opened it).
  private static func readStream(
    _ fd: Int32, path: String, fifo: Bool, limit: Int, heard: HeardSignal
  ) throws(ScriptLoadError) -> [UInt8] {
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65_536)
    var writerCame = !fifo
    var waited = 0
    while true {
      var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
      let ready = poll(&descriptor, 1, 100)
      if let signal = heard.signal {
        throw .interrupted(path, signal: signal, waiting: !writerCame)
      }
      if ready < 0 {
        if errno == EINTR || errno == EAGAIN { continue }
        throw .unreadable(path, errno: errno)
      }
      if ready == 0 {
        waited += 1
        if !writerCame && waited == 10 && isatty(STDERR_FILENO) != 0 {
          let note =
            "snm: waiting for a writer to open \(ScriptLoadError.shown(path)) (a FIFO; "
            + "Ctrl-C stops)\n"
          StandardStreams.writeError(note)
        }
        continue
      }
      writerCame = true
      if descriptor.revents & Int16(POLLNVAL) != 0 { throw .unreadable(path, errno: EBADF) }
      let room = min(chunk.count, limit + 1 - bytes.count)
      let got = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, room) }
      if got == 0 { return bytes }
      if got < 0 {
        if errno == EINTR || errno == EAGAIN { continue }
        throw .unreadable(path, errno: errno)
      }
      bytes.append(contentsOf: chunk[0..<got])
      if bytes.count > limit { throw .tooLarge(path, bytes: nil, limit: limit) }
    }
  }

  /// Why the script at `path` cannot be read (missing, a directory, a socket, not readable,
  /// larger than a script may be), found without opening it (a FIFO's writer would be let go on
  /// if a reader came and went); nil when it can be read. What `snm FILE` checks first, so that
  /// a mistyped name starts no project.
  public static func problem(reading path: String) -> ScriptLoadError? {
    var info = stat()
    if path == "-" {
      guard fstat(STDIN_FILENO, &info) == 0 else { return .unreadable(path, errno: errno) }
    } else if stat(path, &info) != 0 {
      return failure(at: path, errno: errno)
    }
    switch info.st_mode & S_IFMT {
    case S_IFDIR: return .isDirectory(path)
    case S_IFSOCK: return .notAFile(path, kind: "a socket")
    case S_IFREG where Int(info.st_size) > maximumBytes:
      return .tooLarge(path, bytes: Int(info.st_size), limit: maximumBytes)
    default:
      if path != "-" && access(path, R_OK) != 0 { return .unreadable(path, errno: errno) }
      return nil
    }
  }

  /// What `open(2)` or `stat(2)` failing on `path` with `errno` means: a missing file, a
  /// symbolic link to one, a socket (ENXIO), or what the system said.
  static func failure(at path: String, errno code: Int32) -> ScriptLoadError {
    var link = stat()
    switch code {
    case ENOENT:
      guard lstat(path, &link) == 0, link.st_mode & S_IFMT == S_IFLNK else {
        return .notFound(path)
      }
      var target = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
      let count = readlink(path, &target, target.count - 1)
      guard count >= 0 else { return .notFound(path) }
      let name = String(decoding: target[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
      return .danglingLink(path, target: name)
    case ENXIO where stat(path, &link) == 0 && link.st_mode & S_IFMT == S_IFSOCK:
      return .notAFile(path, kind: "a socket")
    default:
      return .unreadable(path, errno: code)
    }
  }
}
