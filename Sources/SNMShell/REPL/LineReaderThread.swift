import Dispatch
import Foundation
import Synchronization

/// The one thread a prompt loop reads its lines on (`readLine` blocks: the editor, a pipe), kept
/// for the whole loop rather than started for every line, so a long piped script pays no thread
/// start per line.
///
/// ```swift
/// let lines = LineReaderThread(reader: reader)
/// defer { lines.finish() }
/// lines.read(prompt: "snm> ", pending: "") { line in ... }   // returns at once
/// ```
/// A pipe (a reader that is not interactive: no prompt, nothing typed in answer to one) is read
/// up to ``readAhead`` lines ahead of the loop, so a line that is there already is handed over
/// at once, on the caller's thread, instead of waking this one and waiting for it.
/// A read under way when the loop stops (a signal) is left to block; the thread ends after it.
final class LineReaderThread: Sendable {
  private struct Request: Sendable {
    var prompt: String
    var pending: String
    var deliver: @Sendable (LineInput) -> Void
  }

  private struct State {
    /// Reads asked for and not served yet.
    var queue: [Request] = []
    var started = false
    /// Lines of a pipe read before anyone asked for them, in order.
    var ahead: [LineInput] = []
    /// The pipe has ended: every read from now on gets `.end`.
    var atEnd = false
    /// `finish` was called: the thread ends once nothing is asked of it.
    var finished = false
  }

  /// How many lines of a pipe are read ahead of the loop at the most.
  static let readAhead = 256

  private let reader: any LineReader
  private let readsAhead: Bool
  private let state = Mutex(State())
  private let wake = DispatchSemaphore(value: 0)

  init(reader: any LineReader) {
    self.reader = reader
    self.readsAhead = !reader.isInteractive
  }

  /// Asks for one line; `deliver` gets it once it is read: at once (on this thread) when a pipe's
  /// line is there already, else on the reading thread.
  func read(prompt: String, pending: String, _ deliver: @escaping @Sendable (LineInput) -> Void) {
    let (ready, start, wakeUp) = state.withLock { state -> (LineInput?, Bool, Bool) in
      defer { state.started = true }
      if !state.ahead.isEmpty {
        // Taking a line makes room: a reader waiting for it reads on.
        let full = state.ahead.count >= Self.readAhead
        return (state.ahead.removeFirst(), !state.started, full)
      }
      if state.atEnd { return (.end, false, false) }
      state.queue.append(Request(prompt: prompt, pending: pending, deliver: deliver))
      // A pipe's thread only waits for room (or at the end): it is reading already.
      return (nil, !state.started, !readsAhead)
    }
    if start {
      let thread = Thread { [self] in readsAhead ? serveAhead() : serve() }
      thread.name = "snm-prompt"
      thread.start()
    }
    if wakeUp { wake.signal() }
    if let ready { deliver(ready) }
  }

  /// Lets the thread end once it has no read to do.
  func finish() {
    state.withLock { $0.finished = true }
    wake.signal()
  }

  /// A line at a time, when asked: a person types in answer to the prompt.
  private func serve() {
    while true {
      wake.wait()
      let next = state.withLock { $0.queue.isEmpty ? nil : $0.queue.removeFirst() }
      guard let next else { return }
      next.deliver(reader.readLine(prompt: next.prompt, pending: next.pending))
    }
  }

  /// What the reading thread of a pipe does next.
  private enum Step {
    case read
    case wait
    case stop
  }

  /// A pipe: reads on while there is room ahead, handing each line to the read waiting for it.
  private func serveAhead() {
    while true {
      let step = state.withLock { state -> Step in
        if state.finished && state.queue.isEmpty { return .stop }
        if state.atEnd || (state.ahead.count >= Self.readAhead && state.queue.isEmpty) {
          return .wait
        }
        return .read
      }
      switch step {
      case .stop: return
      case .wait: wake.wait()
      case .read:
        let line = reader.readLine(prompt: "", pending: "")
        let waiting = state.withLock { state -> [Request] in
          if line.endsInput { state.atEnd = true }
          guard !state.queue.isEmpty else {
            state.ahead.append(line)
            return []
          }
          // At the end every read waiting gets the end; else the first gets the line.
          guard line.endsInput else { return [state.queue.removeFirst()] }
          let all = state.queue
          state.queue.removeAll()
          return all
        }
        for request in waiting { request.deliver(line) }
      }
    }
  }
}
