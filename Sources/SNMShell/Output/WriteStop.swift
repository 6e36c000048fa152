import Foundation
import Synchronization

/// Whether the SIGURG handler that wakes a blocked write is in place.
private let wakeInstalled = Atomic<Bool>(false)

/// Lets another thread stop a writer's writes, the one under way included, even while it waits
/// on a reader that takes a few bytes a second (a pipe, a terminal over a slow link): Ctrl-C
/// ends the output at once instead of when the reader has taken the rest.
///
/// ```swift
/// let failed = FileDescriptorIO.writeAll(fd, bytes) { stop.write($0, $1, $2) }  // the writer
/// stop.stop(signal: SIGINT)  // another thread: the write returns; later ones are refused
/// stop.resume(dropping: false)  // writes go out again; (SIGINT, cut: true)
/// ```
/// A blocked `write(2)` is woken by SIGURG sent to its thread, whose handler does nothing and is
/// installed without `SA_RESTART`: the call returns what it wrote so far (or `EINTR`), and the
/// writer sees the stop before its next call. The writing thread lets SIGURG through for the
/// call only (Dispatch's threads block it, with nearly every other signal). The stopping thread
/// sends it again every millisecond until the writer has left the call: a SIGURG that came just
/// before the call began (between the writer's look at the stop and the call) would leave it
/// blocked. It is sent under the lock the writer takes to leave, so it never ends another call
/// of that thread's. SIGURG is ignored by default and nothing else here asks for it (no socket
/// has an owner).
struct WriteStop: ~Copyable, Sendable {
  /// (Not private: a private type here broke the debug build's testable module, Swift 6.3.1.)
  struct State {
    /// The signal that stopped the writes; 0 while they go out.
    var signal: Int32 = 0
    /// Whether a write was refused (or text dropped) since.
    var cut = false
    /// The thread inside `write(2)`, if one is.
    var writer: pthread_t?
    /// Whether a write goes out only when the file takes it at once (``hurry()``).
    var hurried = false
  }

  private let state = Mutex(State())

  init() {}

  /// One `write(2)` of `count` bytes at `base` to `fd`, unless stopped: then -1 with `errno`
  /// `ECANCELED`. Hurried (``hurry()``), of ``pipeBuffer`` bytes at most: the caller's next
  /// call asks poll again, and the rest is dropped when the file has no room then.
  func write(_ fd: Int32, _ base: UnsafeRawPointer, _ count: Int) -> Int {
    let thread = pthread_self()
    let most: Int? = state.withLock { state in
      guard state.signal == 0, !state.hurried || Self.takesAtOnce(fd) else {
        state.cut = true
        return nil
      }
      state.writer = thread
      return state.hurried ? min(count, Self.pipeBuffer) : count
    }
    guard let most else {
      errno = ECANCELED
      return -1
    }
    // Dispatch's threads block every signal they can: SIGURG is let through for the call only.
    var wake = sigset_t()
    var mask = sigset_t()
    sigemptyset(&wake)
    sigaddset(&wake, SIGURG)
    let unblocked = pthread_sigmask(SIG_UNBLOCK, &wake, &mask) == 0
    let written = Foundation.write(fd, base, most)
    let code = errno
    if unblocked && sigismember(&mask, SIGURG) == 1 { pthread_sigmask(SIG_SETMASK, &mask, nil) }
    state.withLock { $0.writer = nil }
    errno = code
    return written
  }

  /// Whether writes are stopped; when they are, notes that text was dropped (a writer to memory
  /// asks before it keeps text).
  func refuses() -> Bool {
    state.withLock { state in
      guard state.signal != 0 else { return false }
      state.cut = true
      return true
    }
  }

  /// The signal that stopped the writes, nil while they go out.
  var signal: Int32? {
    state.withLock { $0.signal == 0 ? nil : $0.signal }
  }

  /// Stops writing for `signal` (the first one is kept): the write under way returns (what it
  /// wrote stays written) and every later one is refused until `resume`. Returns once no write
  /// is under way. Never from the writing thread.
  func stop(signal: Int32) {
    Self.installWake()
    state.withLock { state in
      if state.signal == 0 { state.signal = signal }
    }
    wakeWriter()
  }

  /// From now on a write goes out only when the file takes it at once (a pipe or terminal with
  /// room: its reader keeps up), else it is dropped; a write under way that waits returns where
  /// it is. Until ``unhurry()``. Never from the writing thread.
  func hurry() {
    Self.installWake()
    state.withLock { $0.hurried = true }
    wakeWriter()
  }

  /// Writes wait on their reader again (``hurry()``).
  func unhurry() {
    state.withLock { $0.hurried = false }
  }

  /// Sends SIGURG to the thread inside `write(2)` until it has left the call (under the lock
  /// it takes to leave, so that no other call of that thread's is ended).
  private func wakeWriter() {
    while state.withLock({ state in
      guard let writer = state.writer else { return false }
      _ = pthread_kill(writer, SIGURG)
      return true
    }) {
      usleep(1000)
    }
  }

  /// What a hurried write sends at most: `PIPE_BUF` on Linux, one page, what a pipe poll says
  /// takes a write (a page free) takes whole. A longer write took the page and then waited on
  /// the reader for the rest, as an unhurried one does.
  static let pipeBuffer = 4096

  /// Whether `fd` takes a write now, without waiting on its reader (or fails it now: its reader
  /// gone). A pipe with a page free takes a message under a page whole.
  private static func takesAtOnce(_ fd: Int32) -> Bool {
    var check = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
    return poll(&check, 1, 0) == 1
  }

  /// Writes go out again. Returns what stopped them, and whether text was dropped (`cut`) or
  /// `dropping` is true; nil when they were not stopped.
  func resume(dropping: Bool) -> (signal: Int32, cut: Bool)? {
    state.withLock { state in
      guard state.signal != 0 else { return nil }
      defer { (state.signal, state.cut) = (0, false) }
      return (state.signal, state.cut || dropping)
    }
  }

  /// Installs the SIGURG handler (once): it does nothing but end a blocked call.
  private static func installWake() {
    let first = wakeInstalled.compareExchange(
      expected: false, desired: true, ordering: .acquiringAndReleasing)
    guard first.exchanged else { return }
    // Not restarting: the blocked write(2) must end (EINTR).
    SignalAction.install(SIGURG, restarting: false, handler: wakeWrite)
  }
}

/// SIGURG's handler: nothing; its coming ends the thread's blocked `write(2)`.
private func wakeWrite(_ signal: Int32) {}
