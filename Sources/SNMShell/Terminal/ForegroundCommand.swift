import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A command that needs the terminal (the pager, the editor of `\e`), run through `/bin/sh -c` in
/// snm's own process group.
///
/// ```swift
/// guard let child = ForegroundCommand.spawn("less -SRXF", pipingInput: true) else { ... }
/// // write to child.input, close it, then:
/// let status = ForegroundCommand.wait(for: child.pid)
/// ```
/// In snm's group the command is in the terminal's foreground group whenever snm is: it can read
/// keys and set the terminal's modes. In a group of its own (what Foundation's `Process` does) it
/// is stopped by SIGTTIN/SIGTTOU under a job-control shell, and gets EIO without one. It starts
/// with every signal at its default and none blocked, whatever snm ignores or masks.
enum ForegroundCommand {
  /// A started command: its pid, and the write end of its standard input when piped.
  struct Child {
    let pid: pid_t
    let input: Int32?
  }

  /// Starts `/bin/sh -c script name arguments...` (so `$1`... are `arguments`); standard input is
  /// a new pipe when `pipingInput`, else snm's own. Nil when it could not be spawned.
  static func spawn(_ script: String, arguments: [String] = [], pipingInput: Bool) -> Child? {
    var ends: [Int32] = [-1, -1]
    if pipingInput {
      guard pipe(&ends) == 0 else { return nil }
      // Neither end stays open in a child spawned meanwhile; dup2 below gives the command its own.
      for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    if pipingInput { posix_spawn_file_actions_adddup2(&actions, ends[0], 0) }
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    // No POSIX_SPAWN_SETPGROUP (Foundation's Process sets it): the command stays in snm's group.
    var defaults = sigset_t()
    sigfillset(&defaults)
    var mask = sigset_t()
    sigemptyset(&mask)
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setsigmask(&attributes, &mask)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
    let words = ["/bin/sh", "-c", script, "snm"] + arguments
    let argv = words.map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var pid: pid_t = 0
    let status = posix_spawn(&pid, "/bin/sh", &actions, &attributes, argv, environ)
    if pipingInput { close(ends[0]) }
    guard status == 0 else {
      if pipingInput { close(ends[1]) }
      return nil
    }
    return Child(pid: pid, input: pipingInput ? ends[1] : nil)
  }

  /// Waits for `pid` to end; its wait status.
  static func wait(for pid: pid_t) -> Int32 {
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 {
      guard errno == EINTR else { return 0 }
    }
    return status
  }

  /// The exit code in a wait status; nil when a signal ended the command.
  static func exitCode(_ status: Int32) -> Int32? {
    status & 0x7f == 0 ? (status >> 8) & 0xff : nil
  }

  /// Whether the shell could not find or run the command (exit 126 or 127).
  static func couldNotStart(_ status: Int32) -> Bool {
    exitCode(status).map { $0 == 126 || $0 == 127 } ?? false
  }
}
