import Dispatch
import Foundation
import SNMGateway
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

extension LocalProjectController {
  /// Listens on the port, prepares Postgres, then keeps one gateway child running until
  /// SIGTERM/SIGINT.
  ///
  /// The listening socket is this process's, given to each child (``listenerVariable``): a
  /// client that connects while no child runs (one crashed, the next is starting) waits in its
  /// queue and the next child answers it, where it was refused before. Throws (exit 3) when the
  /// port is taken, before any Postgres work.
  func supervise() throws(LocalProjectError) -> Never {
    try makeDataDir()
    // `start` holds the lock while it waits for this process: then its saved state is current.
    var state = try resolvedState()
    let listener: Int32
    do {
      listener = Subprocess.movedAboveInherited(try HTTPServer.listen(port: state.port))
    } catch {
      throw LocalProjectError(.unavailable, "cannot serve: \(error)")
    }
    guard listener >= 0 else {
      throw LocalProjectError(.unavailable, "cannot serve: no descriptor for the listening socket")
    }
    let control = SupervisorControl(listener: listener)
    if let lock = ProjectLock.attempt(path: options.dataDir + "/.lock") {
      defer { lock.release() }
      if try ProjectState.load(dataDir: options.dataDir) == nil {
        try discardOrphanedCluster(state)
      }
      try state.save()
    }
    let startedPostgres = !Cluster(layout: state.layout).isRunning
    state = try prepareDatabase(state)
    let cluster = Cluster(layout: state.layout)
    let pidText = "\(getpid())\n"
    if FileManager.default.contents(atPath: state.pidFile) != Data(pidText.utf8) {
      // Atomic: `start` may be reading the file (it wrote the same pid already when it spawned us).
      try? Data(pidText.utf8).write(to: URL(fileURLWithPath: state.pidFile), options: .atomic)
    }
    onTermination? {
      // The listener closes before the child is told to stop: once the child has closed its
      // copy, a client finds no server, not a socket that nothing reads.
      let child = control.state.withLock { state -> pid_t in
        state.stopping = true
        state.closeListener()
        return state.child
      }
      if child > 0 { kill(child, SIGTERM) }
    }
    let code = superviseChildren(state, control: control)
    control.state.withLock { $0.closeListener() }
    if let data = FileManager.default.contents(atPath: state.pidFile), data == Data(pidText.utf8) {
      try? FileManager.default.removeItem(atPath: state.pidFile)
    }
    if startedPostgres { try? cluster.stop() }
    printLine("snm local: stopped")
    exit(code)
  }

  /// Runs gateway children one after another; returns the exit code for the supervisor.
  func superviseChildren(_ state: ProjectState, control: SupervisorControl) -> Int32 {
    let arguments = state.serveArguments
    var crashes: [Double] = []
    let environment = [
      Self.workerVariable: "1", Self.listenerVariable: String(Subprocess.inheritedDescriptor),
    ]
    while true {
      let child: pid_t
      do {
        // Spawned under the lock: the signal handler closes the listener under it, so a child
        // is never given a descriptor already closed (or by then another file's).
        child = try control.state.withLock { state throws(LocalProjectError) -> pid_t in
          guard !state.stopping, state.listener >= 0 else { return 0 }
          state.child = try Subprocess.spawnAttached(
            Self.currentExecutable(), arguments, extraEnvironment: environment,
            inheriting: state.listener)
          return state.child
        }
      } catch {
        printError("snm local: \(error.message)")
        return 3
      }
      if child == 0 { return 0 }
      var status: Int32 = 0
      while waitpid(child, &status, 0) < 0 && errno == EINTR {}
      control.state.withLock { $0.child = 0 }
      if control.state.withLock({ $0.stopping }) { return 0 }
      let signaled = status & 0x7F
      if signaled == 0 {
        // A clean exit is a decision (SIGTERM to the child alone: 0; it cannot serve: 3); only
        // crashes are retried.
        return (status >> 8) & 0xFF
      }
      let now = monotonicSeconds()
      crashes = crashes.filter { now - $0 < 10 } + [now]
      printError("snm local: the gateway crashed (signal \(signaled)); starting it again")
      guard crashes.count < 5 else {
        printError("snm local: the gateway crashed 5 times within 10 s; giving up")
        return 1
      }
    }
  }
}

/// What the signal handler and the supervising loop share.
final class SupervisorControl: Sendable {
  struct State {
    var child: pid_t = 0
    var stopping = false
    /// The gateway's listening socket, -1 once closed.
    var listener: Int32

    mutating func closeListener() {
      guard listener >= 0 else { return }
      close(listener)
      listener = -1
    }
  }

  let state: Mutex<State>

  init(listener: Int32) {
    state = Mutex(State(listener: listener))
  }
}
