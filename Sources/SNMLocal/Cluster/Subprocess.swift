import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Runs helper programs (initdb, pg_ctl, runuser) and waits for them.
///
/// ```swift
/// let result = try Subprocess.run("/usr/lib/postgresql/15/bin/pg_ctl", ["status", "-D", dir])
/// result.status   // exit code
/// result.output   // stdout and stderr together
/// ```
/// Uses posix_spawn and waitpid directly: a daemon the tool leaves behind (postgres under pg_ctl)
/// inherits nothing that would make the wait hang, and no descriptor above standard error. Throws `LocalProjectError` when the program
/// cannot be launched.
enum Subprocess {
  struct Outcome {
    var status: Int32
    var output: String
  }

  static func run(
    _ executable: String, _ arguments: [String], directory: String? = nil
  ) throws(LocalProjectError) -> Outcome {
    var template = Array("/tmp/snm-run-XXXXXX".utf8CString)
    let fd = template.withUnsafeMutableBufferPointer { buffer -> Int32 in
      guard let base = buffer.baseAddress else { return -1 }
      return mkstemp(base)
    }
    guard fd >= 0 else { throw LocalProjectError(.failed, "cannot create a temporary file") }
    defer { close(fd) }
    _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    template.withUnsafeBufferPointer { buffer in
      if let base = buffer.baseAddress { unlink(base) }
    }
    func output(_ actions: inout posix_spawn_file_actions_t) {
      posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
      posix_spawn_file_actions_adddup2(&actions, fd, 1)
      posix_spawn_file_actions_adddup2(&actions, fd, 2)
    }
    // `env -C` changes directory in the child (posix_spawn's chdir action is a GNU extension).
    let pid =
      if let directory {
        try spawn("/usr/bin/env", ["-C", directory, executable] + arguments, actions: output)
      } else {
        try spawn(executable, arguments, actions: output)
      }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    lseek(fd, 0, SEEK_SET)
    var data: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, 4096) }
      if count <= 0 { break }
      data.append(contentsOf: chunk[0..<count])
    }
    let code = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    return Outcome(status: code, output: String(decoding: data, as: UTF8.self))
  }

  /// Starts `arguments` detached (own session, stdin /dev/null, stdout+stderr appended to `log`).
  ///
  /// Returns the child's pid. Throws `LocalProjectError` when spawning fails.
  static func spawnDetached(_ executable: String, _ arguments: [String], log: String)
    throws(LocalProjectError) -> pid_t
  {
    try spawn(executable, arguments, flags: posixSpawnSetSID) { actions in
      posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
      posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_APPEND, 0o600)
      posix_spawn_file_actions_adddup2(&actions, 1, 2)
    }
  }

  /// Starts `executable` with `arguments` and this process's environment (LC_ALL=C.UTF-8 and
  /// `extraEnvironment` over it); `actions` adds the child's file actions, and every descriptor
  /// above `lastKept` is closed in it. Throws when it cannot be started.
  static func spawn(
    _ executable: String, _ arguments: [String], flags: Int16 = 0,
    extraEnvironment: [String: String] = [:], keeping lastKept: Int32 = 2,
    actions addActions: (inout posix_spawn_file_actions_t) -> Void
  ) throws(LocalProjectError) -> pid_t {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    addActions(&actions)
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    if flags != 0 { posix_spawnattr_setflags(&attributes, flags) }
    var environment = ProcessInfo.processInfo.environment
    environment["LC_ALL"] = "C.UTF-8"
    environment.merge(extraEnvironment) { $1 }
    let environ = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { for pointer in environ { free(pointer) } }
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    // Only the standard streams reach the child: a descriptor this process was handed (a
    // caller's lock file, a pipe, a socket) would otherwise stay open in postgres, which outlives
    // us (a `flock` taken around `snm local start` was held until the cluster stopped).
    _ = closeFrom?(&actions, lastKept + 1)
    var pid: pid_t = 0
    let status = posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
    guard status == 0 else {
      throw LocalProjectError(
        .unavailable, "could not run \(executable): \(String(cString: strerror(status)))")
    }
    return pid
  }

  /// Starts a child that shares this process's standard streams; returns its pid. `inheriting`
  /// a descriptor, the child has it as ``inheritedDescriptor`` (3) too, open across the exec
  /// (it must not be 3 here: see ``movedAboveInherited(_:)``); nothing else above 2 reaches it.
  static func spawnAttached(
    _ executable: String, _ arguments: [String], extraEnvironment: [String: String],
    inheriting descriptor: Int32? = nil
  ) throws(LocalProjectError) -> pid_t {
    try spawn(
      executable, arguments, extraEnvironment: extraEnvironment,
      keeping: descriptor == nil ? 2 : inheritedDescriptor
    ) { actions in
      // dup2 to another number leaves the copy without FD_CLOEXEC.
      if let descriptor {
        posix_spawn_file_actions_adddup2(&actions, descriptor, inheritedDescriptor)
      }
    }
  }

  /// The descriptor a child started by `spawnAttached(inheriting:)` has the given one as.
  static let inheritedDescriptor: Int32 = 3

  /// `descriptor`, or a copy of it above ``inheritedDescriptor`` (closed on exec; the original
  /// closed) when it is that number: dup2 onto itself would keep its FD_CLOEXEC on C libraries
  /// older than glibc 2.29. -1 when no copy could be made.
  static func movedAboveInherited(_ descriptor: Int32) -> Int32 {
    guard descriptor == inheritedDescriptor else { return descriptor }
    let moved = fcntl(descriptor, F_DUPFD_CLOEXEC, inheritedDescriptor + 1)
    close(descriptor)
    return moved
  }

  /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later; spawn.h hides it behind
  /// _GNU_SOURCE), looked up once.
  static let closeFrom:
    (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? = {
      guard
        let symbol = dlsym(
          UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np")
      else { return nil }
      return unsafeBitCast(
        symbol,
        to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)
          .self)
    }()

  /// glibc's POSIX_SPAWN_SETSID (spawn.h hides it behind _GNU_SOURCE).
  static let posixSpawnSetSID: Int16 = 0x80

  /// True while a process with `pid` exists (a zombie counts as gone).
  static func isAlive(_ pid: pid_t) -> Bool {
    guard pid > 0 else { return false }
    if kill(pid, 0) == 0 { return !isZombie(pid) }
    return errno == EPERM
  }

  static func isZombie(_ pid: pid_t) -> Bool {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
      let close = stat.lastIndex(of: ")")
    else { return false }
    return stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).hasPrefix("Z")
  }

  /// The command line of `pid`, arguments joined by spaces ("" when unknown).
  static func commandLine(_ pid: pid_t) -> String {
    guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return "" }
    return String(decoding: data.map { $0 == 0 ? 0x20 : $0 }, as: UTF8.self)
  }
}
