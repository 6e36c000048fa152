import Foundation
import Synchronization

/// Set by SIGWINCH, taken by the editor's thread (``WindowResize/take()``).
private let windowResized = Atomic<Bool>(false)
/// The write end of the pipe that wakes the editor's read, for the C handler; -1: none.
private let resizeWakeEnd = Atomic<Int32>(-1)
/// How many handlers are between taking ``resizeWakeEnd`` and writing to it.
private let handlersWaking = Atomic<Int>(0)

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

  /// Stops waking `fd` (its pipe is about to close); a resize is only noted from now on. Returns
  /// once no handler is left that took `fd` before and has yet to write to it: closed, its number
  /// goes to the next file any thread opens, which got that handler's byte (the handler runs on
  /// the main or the signal thread, the reader ends on another).
  static func stopWaking(_ fd: Int32) {
    _ = resizeWakeEnd.compareExchange(
      expected: fd, desired: -1, ordering: .sequentiallyConsistent)
    while handlersWaking.load(ordering: .sequentiallyConsistent) > 0 { sched_yield() }
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
  // Counted before the descriptor is taken, so that `stopWaking` waits for this write.
  handlersWaking.wrappingAdd(1, ordering: .sequentiallyConsistent)
  let fd = resizeWakeEnd.load(ordering: .sequentiallyConsistent)
  if fd >= 0 {
    var byte: UInt8 = 1
    // A full pipe already holds a wake-up.
    _ = write(fd, &byte, 1)
  }
  handlersWaking.wrappingSubtract(1, ordering: .sequentiallyConsistent)
  errno = saved
}
