import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// The threads handlers run on (they may block: libpq, password hashing, file writes).
///
/// ```swift
/// let pool = HTTPWorkerPool(maximum: 32, minimum: 4, idleTimeout: 30)
/// pool.submit { answer(request) }     // runs on an idle worker, a new one, or when one frees
/// pool.stop()
/// ```
/// Threads are made as work arrives, up to `maximum`; past it jobs wait in order. Jobs may name a
/// key (the server's: a request's method and path): at most `perKey` jobs of one key run at once,
/// and jobs of other keys pass the ones that wait, so one slow endpoint that many clients call
/// cannot take every thread. A thread left
/// waiting `idleTimeout` seconds ends, unless only `minimum` are left, so a burst's threads do not
/// stay for ever. `waiting` is readable while a job waits with no worker idle: a worker keeping a
/// connection for its client's next request (``HTTPConnection/serve(_:limits:handler:mayLinger:)``)
/// polls it too, and lets go of the connection at once.
final class HTTPWorkerPool: Sendable {
  typealias Job = @Sendable () -> Void

  let maximum: Int
  let minimum: Int
  let perKey: Int
  let idleTimeout: Double
  let state = Mutex(State())
  let wakeup = DispatchSemaphore(value: 0)
  /// A pipe's read end, readable while `State.signalled` (a job waits and no worker is idle),
  /// and its write end.
  let waiting: Int32
  let signal: Int32

  struct State {
    var jobs: [(job: Job, key: String?)] = []
    /// Jobs before this index have been taken (the queue is compacted when it empties, or when
    /// the taken ones are most of it).
    var head = 0
    /// Threads parked and not yet claimed by `submit` (one that times out uncounts itself before
    /// it parks again, so `submit` never wakes a thread that is not there).
    var idle = 0
    var workers = 0
    var stopped = false
    /// `waiting` has been written and not yet drained.
    var signalled = false
    /// Idle waits that ran out (read by tests, which wait for a few rather than for time).
    var idleTimeouts = 0
    /// Jobs running, by key.
    var running: [String: Int] = [:]

    var pending: Int { jobs.count - head }

    /// The first job waiting whose key is under `perKey`, counted running.
    mutating func take(perKey: Int) -> (job: Job, key: String?)? {
      var index = head
      while index < jobs.count {
        if let key = jobs[index].key, running[key, default: 0] >= perKey {
          index += 1
          continue
        }
        let taken = jobs[index]
        if let key = taken.key { running[key, default: 0] += 1 }
        if index == head {
          advance()
        } else {
          jobs.remove(at: index)
        }
        return taken
      }
      return nil
    }

    /// A job of `key` ended.
    mutating func finished(_ key: String) {
      let left = running[key, default: 1] - 1
      running[key] = left > 0 ? left : nil
    }

    /// Whether a job of `key` would wait for one of its key to end.
    func isHeldBack(_ key: String?, perKey: Int) -> Bool {
      guard let key else { return false }
      return running[key, default: 0] + jobs[head...].count { $0.key == key } >= perKey
    }

    mutating func advance() {
      head += 1
      if head == jobs.count {
        jobs.removeAll(keepingCapacity: true)
        head = 0
      } else if head >= 4_096 && head * 2 >= jobs.count {
        // A queue that never empties under sustained load would otherwise keep every job.
        jobs.removeFirst(head)
        head = 0
      }
    }
  }

  /// - Parameter perKey: jobs of one key run at once (at least 1; `maximum` when nil).
  init(maximum: Int, minimum: Int, idleTimeout: Double, perKey: Int? = nil) {
    self.maximum = max(1, maximum)
    self.minimum = max(0, min(minimum, maximum))
    self.perKey = max(1, min(perKey ?? maximum, maximum))
    self.idleTimeout = idleTimeout
    var ends: [Int32] = [-1, -1]
    if pipe(&ends) == 0 {
      for end in ends {
        _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
      }
    }
    waiting = ends[0]
    signal = ends[1]
  }

  deinit {
    for end in [waiting, signal] where end >= 0 { close(end) }
  }

  /// Worker threads alive.
  var count: Int { state.withLock { $0.workers } }

  /// Jobs waiting for a worker.
  var pending: Int { state.withLock { $0.pending } }

  /// Runs `job` on a worker thread (after the jobs of `key` before it, while `perKey` run).
  func submit(key: String? = nil, _ job: @escaping Job) {
    enum Decision { case wake, spawn, queued }
    let decision = state.withLock { state -> Decision in
      // A job held back by its key is taken by one of its key ending: no thread is woken or
      // made for it (a worker of its key keeping a connection is told that a job waits).
      let heldBack = state.isHeldBack(key, perKey: perKey)
      state.jobs.append((job, key))
      if !heldBack && state.idle > 0 {
        state.idle -= 1
        return .wake
      }
      if !heldBack && state.workers < maximum {
        state.workers += 1
        return .spawn
      }
      if !state.signalled && waiting >= 0 {
        state.signalled = true
        var one: UInt8 = 1
        _ = Glibc.write(signal, &one, 1)
      }
      return .queued
    }
    switch decision {
    case .queued: break
    case .wake: wakeup.signal()
    case .spawn:
      let worker = Thread { [self] in work() }
      worker.stackSize = 4 << 20  // room for deep parses in handlers
      worker.name = "snm-http-worker"
      worker.start()
    }
  }

  /// Ends idle workers now and busy ones after their job; jobs still queued are run first.
  func stop() {
    let idle = state.withLock { state -> Int in
      state.stopped = true
      defer { state.idle = 0 }
      return state.idle
    }
    for _ in 0..<idle { wakeup.signal() }
  }

  /// Runs jobs until the pool stops; parks between them, and ends after `idleTimeout` seconds
  /// without one (unless only `minimum` are left).
  func work() {
    while true {
      enum Next { case run(Job, String?), wait, exit }
      let next = state.withLock { state -> Next in
        if let taken = state.take(perKey: perKey) {
          if state.pending == 0 && state.signalled {
            state.signalled = false
            var byte: UInt8 = 0
            _ = Glibc.read(waiting, &byte, 1)
          }
          return .run(taken.job, taken.key)
        }
        if state.stopped {
          state.workers -= 1
          return .exit
        }
        state.idle += 1
        return .wait
      }
      switch next {
      case .run(let job, let key):
        job()
        if let key { state.withLock { $0.finished(key) } }
        continue
      case .exit:
        return
      case .wait:
        break
      }
      guard wakeup.wait(timeout: .now() + idleTimeout) == .timedOut else {
        continue  // whoever woke it counted it busy already
      }
      enum Timeout { case park, claimed, exit }
      let after = state.withLock { state -> Timeout in
        state.idleTimeouts += 1
        // Every parked thread was claimed meanwhile, this one too (parked threads are alike):
        // the claim's wake-up is on its way and must be taken.
        guard state.idle > 0 else { return .claimed }
        // No longer parked; parks again below unless it may leave.
        state.idle -= 1
        guard state.workers > minimum, state.pending == 0 else { return .park }
        state.workers -= 1
        return .exit
      }
      switch after {
      case .park: continue
      case .claimed: wakeup.wait()
      case .exit: return
      }
    }
  }
}
