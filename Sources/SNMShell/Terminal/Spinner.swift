import Foundation
import SNMWire
import Synchronization

/// A spinner on standard error for a response that takes more than a second, at a terminal only.
///
/// ```swift
/// let spinner = Spinner.start(label: "waiting for 127.0.0.1:54321")
/// defer { spinner.stop() }
/// ```
/// It draws on one line (`⠋ waiting for ... 1.2 s`) and erases itself when stopped; drawing and
/// stopping take one lock, so nothing is drawn after `stop` returns.
public final class Spinner: Sendable {
  private struct State {
    var stopped = false
    var drawn = false
    var task: Task<Void, Never>?
  }

  private let state = Mutex(State())
  static let frames = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]

  private init() {}

  /// Starts a spinner that appears after `delay` seconds, when standard error is a terminal.
  public static func start(label: String, delay: Double = 1, enabled: Bool = true) -> Spinner {
    let spinner = Spinner()
    guard enabled, Terminal.isTerminal(STDERR_FILENO) else { return spinner }
    let started = ContinuousClock.now
    let task = Task.detached(priority: .utility) { [spinner] in
      try? await Task.sleep(for: .seconds(delay))
      var frame = 0
      while !Task.isCancelled {
        let elapsed = (ContinuousClock.now - started).components
        let seconds = Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
        let time = String(format: "%.1f", seconds)
        spinner.draw("\r\(frames[frame % frames.count]) \(label) \(time) s")
        frame += 1
        try? await Task.sleep(for: .milliseconds(100))
      }
    }
    spinner.state.withLock { $0.task = task }
    return spinner
  }

  private func draw(_ text: String) {
    state.withLock { state in
      guard !state.stopped else { return }
      state.drawn = true
      StandardStreams.writeError(text)
    }
  }

  /// Stops the spinner and erases its line.
  public func stop() {
    let task = state.withLock { state in
      state.stopped = true
      if state.drawn { StandardStreams.writeError("\r\u{1B}[K") }
      state.drawn = false
      return state.task
    }
    task?.cancel()
  }
}
