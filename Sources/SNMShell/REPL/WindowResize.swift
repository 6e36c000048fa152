import Foundation
import Synchronization

/// Set by SIGWINCH, taken by the editor's thread (``WindowResize/take()``).
private let windowResized = Atomic<Bool>(false)
/// The write end of the pipe that wakes the editor's read, for the C handler; -1: none.
private let resizeWakeEnd = Atomic<Int32>(-1)

/// SIGWINCH for the line editor: the handler only notes the resize and writes a byte to the
/// editor's wake pipe (async-signal-safe); the editor's own thread asks libedit for the new width
/// and draws the line again, between two keys. libedit's own handlers stay off (they pass
/// signals on to the whole process group).
///
/// ```swift
/// WindowResize.install(waking: wake.write)   // once the editor exists
/// if WindowResize.take() { redraw() }        // on the editor's thread, woken by the pipe
/// ```
/// The handler uses `SA_RESTART`; snm's other threads block SIGWINCH (Dispatch's block nearly
/// every signal), so it runs on the main or the signal thread, neither of which sees `EINTR`.
enum WindowResize {
  /// Puts the handler in place; a resize from now on wakes `fd`'s reader.
  static func install(waking fd: Int32) {
    resizeWakeEnd.store(fd, ordering: .releasing)
    SignalAction.install(SIGWINCH, restarting: true, handler: noteResize)
  }

  /// Stops waking `fd` (its pipe is about to close); a resize is only noted from now on.
  static func stopWaking(_ fd: Int32) {
    _ = resizeWakeEnd.compareExchange(
      expected: fd, desired: -1, ordering: .acquiringAndReleasing)
  }

  /// Whether the window changed size since the last look; the look resets it.
  static func take() -> Bool {
    windowResized.exchange(false, ordering: .acquiringAndReleasing)
  }
}

/// The C signal handler: a note and one byte into the wake pipe, nothing else.
private func noteResize(_ signal: Int32) {
  let saved = errno
  windowResized.store(true, ordering: .releasing)
  let fd = resizeWakeEnd.load(ordering: .acquiring)
  if fd >= 0 {
    var byte: UInt8 = 1
    // A full pipe already holds a wake-up.
    _ = write(fd, &byte, 1)
  }
  errno = saved
}
