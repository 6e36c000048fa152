import Foundation
import Synchronization

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The running data task, shared with the cancellation handler (which may run first).
final class TransferHandle: Sendable {
  private struct State {
    var task: URLSessionDataTask?
    var cancelled = false
  }

  private let state = Mutex(State())

  func start(_ task: URLSessionDataTask) {
    let cancelled = state.withLock { state in
      state.task = task
      return state.cancelled
    }
    task.resume()
    if cancelled { task.cancel() }
  }

  func cancel() {
    let task = state.withLock { state in
      state.cancelled = true
      return state.task
    }
    task?.cancel()
  }
}
