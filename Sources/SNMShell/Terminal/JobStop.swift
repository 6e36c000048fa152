import Foundation
import Synchronization

/// Ctrl-Z (and Ctrl-\\) for a reader that turned the terminal's signal keys off (libedit's line,
/// the password prompt) and so reads the key as a byte: snm stops its process group (or quits) as
/// the terminal would have.
///
/// ```swift
/// restoreTheTerminal()
/// JobStop.stopAsTheTerminalWould()    // returns once continued (`fg`), or at once without job control
/// takeTheTerminalAgain()
/// ```
/// The whole group stops (a parent `sh -c` in the same job too, or its shell would wait on it
/// forever). The signal reaches another thread, which stops the process a moment later; this one
/// waits for the SIGCONT that follows, up to half a second: where no shell has job control the
/// group is orphaned and the kernel drops the signal, and the reader simply goes on.
enum JobStop {
  /// Stops the group by `signal` (SIGTSTP: Ctrl-Z; SIGTTIN: a background job that would read
  /// the terminal); whether a SIGCONT came (false: no shell has job control here).
  @discardableResult
  static func stopAsTheTerminalWould(by signal: Int32 = SIGTSTP) -> Bool {
    continued.store(false, ordering: .releasing)
    let previous = SignalAction.install(SIGCONT, restarting: false, handler: noteContinued)
    kill(0, signal)
    let deadline = ContinuousClock.now + .milliseconds(500)
    while !continued.load(ordering: .acquiring) && ContinuousClock.now < deadline {
      usleep(1_000)
    }
    SignalAction.restore(SIGCONT, previous)
    return continued.load(ordering: .acquiring)
  }

  /// Waits, stopped by SIGTTIN as a read of the terminal stops a job, while snm's process group is
  /// in the background of the terminal `fd` (`snm &`, `snm -c 'login ...' &`): snm's threads
  /// block SIGTTIN and SIGTTOU, so the kernel let it set the foreground's terminal raw or silent
  /// and then failed its read (EIO). False when no shell can bring it to the front (no job
  /// control); true at once for a terminal that is not snm's controlling one.
  static func waitForTheForeground(of fd: Int32) -> Bool {
    // Once `fg` continued snm its SIGCONT handler may not have run yet: the terminal says.
    while isInTheBackground(of: fd) {
      if !stopAsTheTerminalWould(by: SIGTTIN) && isInTheBackground(of: fd) { return false }
    }
    return true
  }

  /// Whether another process group than snm's has the terminal `fd` (false for a terminal that
  /// is not snm's controlling one).
  static func isInTheBackground(of fd: Int32) -> Bool {
    let front = tcgetpgrp(fd)
    return front > 0 && front != getpgrp()
  }

  /// Ctrl-\ for such a reader, once it gave the terminal back: snm ends by SIGQUIT, as the key
  /// ends it during a request and psql at its prompt (main.swift made sure that leaves no core
  /// file), with nothing more sent or stored.
  static func quitAsTheTerminalWould() -> Never {
    signal(SIGQUIT, SIG_DFL)
    var quit = sigset_t()
    sigemptyset(&quit)
    sigaddset(&quit, SIGQUIT)
    pthread_sigmask(SIG_UNBLOCK, &quit, nil)
    raise(SIGQUIT)
    exit(128 + SIGQUIT)
  }
}

private let continued = Atomic<Bool>(false)

private func noteContinued(_ signal: Int32) {
  continued.store(true, ordering: .releasing)
}
