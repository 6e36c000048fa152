import Dispatch
import Foundation
import SNMGateway
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

extension LocalProjectController {
  /// Prepares Postgres, then keeps one gateway child running until SIGTERM/SIGINT.
  func supervise() throws(LocalProjectError) -> Never {
    try makeDataDir()
    // `start` holds the lock while it waits for this process: then its saved state is current.
    var state = try resolvedState()
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
    let control = SupervisorControl()
    onTermination? {
      let child = control.state.withLock { state -> pid_t in
        state.stopping = true
        return state.child
      }
      if child > 0 { kill(child, SIGTERM) }
    }
    let code = superviseChildren(state, control: control)
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
    while true {
      let child: pid_t
      do {
        child = try Subprocess.spawnAttached(
          Self.currentExecutable(), arguments, extraEnvironment: [Self.workerVariable: "1"])
      } catch {
        printError("snm local: \(error.message)")
        return 3
      }
      let stopping = control.state.withLock { state -> Bool in
        state.child = child
        return state.stopping
      }
      if stopping { kill(child, SIGTERM) }
      var status: Int32 = 0
      while waitpid(child, &status, 0) < 0 && errno == EINTR {}
      control.state.withLock { $0.child = 0 }
      if control.state.withLock({ $0.stopping }) { return 0 }
      let signaled = status & 0x7F
      if signaled == 0 {
        // A clean exit is a decision (port taken: 3); only crashes are retried.
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
  }

  let state = Mutex(State())
}
