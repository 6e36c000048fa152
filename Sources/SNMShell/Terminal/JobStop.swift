import Foundation
import Synchronization

/// Ctrl-Z for a reader that turned the terminal's signal keys off (libedit's line, the password
/// prompt) and so reads the key as a byte: snm stops its process group as the terminal would have.
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
  static func stopAsTheTerminalWould() {
    var action = sigaction()
    action.__sigaction_handler.sa_handler = noteContinued
    sigemptyset(&action.sa_mask)
    var previous = sigaction()
    continued.store(false, ordering: .releasing)
    _ = sigaction(SIGCONT, &action, &previous)
    kill(0, SIGTSTP)
    let deadline = ContinuousClock.now + .milliseconds(500)
    while !continued.load(ordering: .acquiring) && ContinuousClock.now < deadline {
      usleep(1_000)
    }
    _ = sigaction(SIGCONT, &previous, nil)
  }
}

private let continued = Atomic<Bool>(false)

private func noteContinued(_ signal: Int32) {
  continued.store(true, ordering: .releasing)
}
