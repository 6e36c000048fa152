import Foundation
import Synchronization

/// The write end of the signal pipe, for the C signal handler (which can only touch globals).
private let signalPipeWriteEnd = Atomic<Int32>(-1)
/// How many signals the C handler put in the pipe, counted before it writes (and taken back
/// when the pipe is full), so that ``InterruptSignals/settle()`` sees one the moment it came.
private let signalsRaised = Atomic<Int>(0)

/// SIGINT and SIGTERM, turned from asynchronous signals into calls on an ordinary thread.
///
/// ```swift
/// InterruptSignals.shared.install()
/// let outcome = await InterruptSignals.shared.watch(onSignal: { _ in task.cancel() }) {
///   await task.value
/// }
/// ```
/// The handler only writes the signal number to a pipe (async-signal-safe); a dedicated thread reads
/// it and calls every watcher, outermost first (so `snm test` knows to start no more files before
/// the requests in flight give up; a request and the script around it both stop). With no
/// watcher, SIGINT and SIGTERM end the process with 130 and 143, as they would by default.
/// Handlers use `SA_RESTART`, so no other system call sees `EINTR`.
///
/// A `StatementExecutor` (and a `TestRunner`) watches the source it was given, `shared` unless a
/// test gives it one of its own (`InterruptSignals()`): such a source only hears `simulate`,
/// reaches only its own watchers, and drops a signal nobody watches instead of ending the process.
public final class InterruptSignals: Sendable {
  /// The process-wide instance (signals are process-wide).
  public static let shared = InterruptSignals(processWide: true)

  private struct State {
    var installed = false
    var nextID = 0
    var watchers: [(id: Int, handler: @Sendable (Int32) -> Void)] = []
  }

  private let state = Mutex(State())
  /// Whether this is `shared`: the only source the real signals reach, and the only one that
  /// may end the process.
  private let processWide: Bool
  /// The terminal's settings when `install` ran: put back before a signal ends the process (a
  /// password prompt turns echo off, the line editor switches to raw mode).
  private let terminalAtStart = Mutex<termios?>(nil)
  /// How many signals of the pipe the reading thread has handed to the watchers.
  private let signalsDelivered = Atomic<Int>(0)

  private init(processWide: Bool) {
    self.processWide = processWide
  }

  /// A source of its own, for tests: fed only by `simulate`, never ending the process.
  convenience init() {
    self.init(processWide: false)
  }

  /// Installs the handlers and starts the reading thread (on `shared`; other sources hear no real
  /// signals); later calls do nothing.
  public func install() {
    guard processWide else { return }
    let first = state.withLock { state in
      defer { state.installed = true }
      return !state.installed
    }
    guard first else { return }
    var settings = termios()
    if isatty(STDIN_FILENO) != 0 && tcgetattr(STDIN_FILENO, &settings) == 0 {
      terminalAtStart.withLock { $0 = settings }
    }
    var ends: [Int32] = [0, 0]
    guard pipe(&ends) == 0 else { return }
    _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
    _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
    _ = fcntl(ends[1], F_SETFL, O_NONBLOCK)
    signalPipeWriteEnd.store(ends[1], ordering: .releasing)
    let readEnd = ends[0]
    let thread = Thread { [self] in readLoop(readEnd) }
    thread.name = "snm-signals"
    thread.start()
    for signal in [SIGINT, SIGTERM] {
      SignalAction.install(signal, restarting: true, handler: forwardSignal)
    }
  }

  /// Runs `body`; a SIGINT or SIGTERM meanwhile calls `onSignal` (on the signal thread) instead
  /// of ending the process. Watchers nest: each is called, outermost first.
  public func watch<T: Sendable>(
    onSignal: @escaping @Sendable (Int32) -> Void, _ body: () async throws -> T
  ) async rethrows -> T {
    let id = state.withLock { state in
      state.nextID += 1
      state.watchers.append((state.nextID, onSignal))
      return state.nextID
    }
    defer { state.withLock { $0.watchers.removeAll { $0.id == id } } }
    return try await body()
  }

  /// Runs the synchronous `body`, which polls `heard`; a SIGINT or SIGTERM meanwhile is recorded
  /// there (the first one) instead of ending the process, and every outer watcher hears it too.
  /// For a blocking read that waits in short steps (a FIFO with no writer yet, a pipe).
  public func watching<T, E: Error>(_ body: (HeardSignal) throws(E) -> T) throws(E) -> T {
    let heard = HeardSignal()
    let id = state.withLock { state in
      state.nextID += 1
      state.watchers.append((state.nextID, { heard.record($0) }))
      return state.nextID
    }
    defer { state.withLock { $0.watchers.removeAll { $0.id == id } } }
    return try body(heard)
  }

  /// Calls `handler` (on the signal thread) on every SIGINT or SIGTERM from now on, instead of
  /// ending the process: for a process that serves until told to stop (`snm local serve`).
  public func onSignal(_ handler: @escaping @Sendable (Int32) -> Void) {
    state.withLock { state in
      state.nextID += 1
      state.watchers.append((state.nextID, handler))
    }
  }

  private func readLoop(_ fd: Int32) {
    var byte: UInt8 = 0
    while true {
      let count = read(fd, &byte, 1)
      if count < 0 && errno == EINTR { continue }
      guard count == 1 else { break }
      deliver(Int32(byte))
      signalsDelivered.wrappingAdd(1, ordering: .releasing)
    }
    // No more are handed over: nobody waits for them.
    signalsDelivered.store(.max, ordering: .releasing)
  }

  /// Waits until every SIGINT and SIGTERM that has reached the process is handed to the
  /// watchers (on `shared`; a test's source hands each over as `simulate` is called). The signal
  /// thread may run long after the handler under load: a statement whose last row was written
  /// after Ctrl-C came, but before that thread ran, was taken for a success (exit 0). A statement
  /// asks this once its output is written, before it asks whether a signal stopped it.
  ///
  /// A signal sent is waited for from the moment the kernel holds it for the process
  /// (`sigpending`), before a thread has run the handler: the thread it chose may not run for a
  /// while under load either.
  public func settle() {
    guard processWide else { return }
    while Self.pendingHere()
      || signalsDelivered.load(ordering: .acquiring) < signalsRaised.load(ordering: .acquiring)
    {
      usleep(1000)
    }
  }

  /// Whether SIGINT or SIGTERM is pending for the process (or this thread), its handler not run.
  private static func pendingHere() -> Bool {
    var pending = sigset_t()
    guard sigpending(&pending) == 0 else { return false }
    return sigismember(&pending, SIGINT) == 1 || sigismember(&pending, SIGTERM) == 1
  }

  /// Acts as if `signal` had arrived: for unit tests of what the watchers do. Returns how many
  /// watchers heard it (none: a test's own source drops it).
  @discardableResult
  func simulate(_ signal: Int32) -> Int {
    deliver(signal)
  }

  /// How many watchers are watching now.
  var watcherCount: Int {
    state.withLock { $0.watchers.count }
  }

  @discardableResult
  private func deliver(_ signal: Int32) -> Int {
    let handlers = state.withLock { $0.watchers.map(\.handler) }
    guard !handlers.isEmpty else {
      if processWide { endProcess(signal) }
      return 0
    }
    for handler in handlers { handler(signal) }
    return handlers.count
  }
}

extension InterruptSignals {
  /// Ends the process as `signal` would (130 or 143), with the terminal as it was at the start
  /// (and the cursor on a fresh line when snm had changed it). Only the process-wide source.
  fileprivate func endProcess(_ signal: Int32) -> Never {
    if var settings = terminalAtStart.withLock({ $0 }), tcgetpgrp(STDIN_FILENO) == getpgrp() {
      var current = termios()
      let changed =
        tcgetattr(STDIN_FILENO, &current) != 0 || !Self.same(current, settings)
      if changed {
        _ = tcsetattr(STDIN_FILENO, TCSANOW, &settings)
        var newline = UInt8(ascii: "\n")
        _ = write(STDERR_FILENO, &newline, 1)
      }
    }
    exit(signal == SIGTERM ? ExitCode.terminated.rawValue : ExitCode.interrupted.rawValue)
  }

  /// Whether two terminal settings are byte for byte the same.
  private static func same(_ first: termios, _ second: termios) -> Bool {
    withUnsafeBytes(of: first) { one in withUnsafeBytes(of: second) { one.elementsEqual($0) } }
  }
}

/// The C signal handler: one byte into the pipe, nothing else.
private func forwardSignal(_ signal: Int32) {
  let fd = signalPipeWriteEnd.load(ordering: .acquiring)
  guard fd >= 0 else { return }
  var byte = UInt8(truncatingIfNeeded: signal)
  let saved = errno
  signalsRaised.wrappingAdd(1, ordering: .sequentiallyConsistent)
  if write(fd, &byte, 1) != 1 {
    signalsRaised.wrappingSubtract(1, ordering: .sequentiallyConsistent)
  }
  errno = saved
}
