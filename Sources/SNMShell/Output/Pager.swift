import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Shows long output through `$SNM_PAGER`, else `$PAGER`, else `less -SRXF`, when standard output
/// is a terminal.
///
/// ```swift
/// if Pager.isNeeded(for: text), let pager = Pager.command(), await Pager.show(text, through: pager) {
///   return
/// }
/// print(text)
/// ```
/// The pager runs in snm's own process group, so it is in the terminal's foreground group whenever
/// snm is: it can read keys and set the terminal's modes (a pager in a group of its own is stopped
/// by SIGTTIN/SIGTTOU under a job-control shell, and gets EIO without one). While it runs, Ctrl-C
/// belongs to it: the shell neither exits nor cancels anything.
enum Pager {
  /// The command to run: `$SNM_PAGER` when set (none when it is empty or `off`), else `$PAGER`
  /// when set and not empty, else `less -SRXF`.
  static func command(environment: [String: String] = ProcessInfo.processInfo.environment)
    -> String?
  {
    if let chosen = environment["SNM_PAGER"] {
      let trimmed = chosen.trimmingCharacters(in: .whitespaces)
      return trimmed.isEmpty || trimmed.lowercased() == "off" ? nil : chosen
    }
    if let pager = environment["PAGER"], !pager.trimmingCharacters(in: .whitespaces).isEmpty {
      return pager
    }
    return "less -SRXF"
  }

  /// Whether `text` has more lines than the terminal shows (leaving one for the prompt).
  static func isNeeded(for text: String, rows: Int = Terminal.rows()) -> Bool {
    var lines = 0
    for byte in text.utf8 where byte == 0x0A {
      lines += 1
      if lines >= rows { return true }
    }
    return false
  }

  /// Runs `command` (through `/bin/sh -c`) on `text` and waits for it, while SIGINT and SIGTERM
  /// from `signals` go to the pager alone; false when it could not start (it could not be spawned,
  /// or the shell could not find or run it: exit 126 or 127), so the caller prints `text` itself.
  static func show(_ text: String, through command: String, signals: InterruptSignals = .shared)
    async -> Bool
  {
    // The pager may quit before reading everything (`q`): a broken pipe is not an error.
    signal(SIGPIPE, SIG_IGN)
    guard let (pid, writer) = spawn(command) else { return false }
    return await signals.watch(onSignal: { _ in }) {
      writeAll(text, to: writer)
      close(writer)
      let status = wait(for: pid)
      let exited = status & 0x7f == 0
      let code = (status >> 8) & 0xff
      return !(exited && (code == 126 || code == 127))
    }
  }

  /// Starts `/bin/sh -c command` in this process's group, reading a new pipe; returns its pid and
  /// the pipe's write end.
  private static func spawn(_ command: String) -> (pid_t, Int32)? {
    var ends: [Int32] = [0, 0]
    guard pipe(&ends) == 0 else { return nil }
    // Neither end stays open in a child spawned meanwhile; dup2 below gives the pager its own.
    for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, ends[0], 0)
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    // No POSIX_SPAWN_SETPGROUP (Foundation's Process sets it): the pager stays in snm's group.
    // It starts with every signal at its default and none blocked, whatever snm ignores or masks.
    var defaults = sigset_t()
    sigfillset(&defaults)
    var mask = sigset_t()
    sigemptyset(&mask)
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setsigmask(&attributes, &mask)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
    let words: [String] = ["/bin/sh", "-c", command]
    let argv = words.map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var pid: pid_t = 0
    let status = posix_spawn(&pid, "/bin/sh", &actions, &attributes, argv, environ)
    close(ends[0])
    guard status == 0 else {
      close(ends[1])
      return nil
    }
    return (pid, ends[1])
  }

  /// Writes all of `text` to `fd`, stopping quietly when the reader has gone.
  private static func writeAll(_ text: String, to fd: Int32) {
    let bytes = Array(text.utf8)
    bytes.withUnsafeBytes { buffer in
      guard let base = buffer.baseAddress else { return }
      var offset = 0
      while offset < buffer.count {
        let written = write(fd, base + offset, buffer.count - offset)
        if written > 0 {
          offset += written
        } else if written < 0 && errno == EINTR {
          continue
        } else {
          return
        }
      }
    }
  }

  /// Waits for `pid` to end; its wait status.
  private static func wait(for pid: pid_t) -> Int32 {
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 {
      guard errno == EINTR else { return 0 }
    }
    return status
  }
}
