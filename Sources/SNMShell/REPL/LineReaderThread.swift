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
/// A read under way when the loop stops (a signal) is left to block; the thread ends after it.
final class LineReaderThread: Sendable {
  private struct Request: Sendable {
    var prompt: String
    var pending: String
    var deliver: @Sendable (LineInput) -> Void
  }

  private let reader: any LineReader
  private let requests = Mutex<(queue: [Request], started: Bool)>(([], false))
  private let wake = DispatchSemaphore(value: 0)

  init(reader: any LineReader) {
    self.reader = reader
  }

  /// Asks for one line; `deliver` gets it (on the reading thread) once it is read.
  func read(prompt: String, pending: String, _ deliver: @escaping @Sendable (LineInput) -> Void) {
    let start = requests.withLock { state in
      state.queue.append(Request(prompt: prompt, pending: pending, deliver: deliver))
      defer { state.started = true }
      return !state.started
    }
    if start {
      let thread = Thread { [self] in serve() }
      thread.name = "snm-prompt"
      thread.start()
    }
    wake.signal()
  }

  /// Lets the thread end once it has no read to do.
  func finish() {
    wake.signal()
  }

  private func serve() {
    while true {
      wake.wait()
      let next = requests.withLock { $0.queue.isEmpty ? nil : $0.queue.removeFirst() }
      guard let next else { return }
      next.deliver(reader.readLine(prompt: next.prompt, pending: next.pending))
    }
  }
}
