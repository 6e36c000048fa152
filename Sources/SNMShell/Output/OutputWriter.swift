import Foundation
import SNMWire
import Synchronization

/// A buffered writer to a file descriptor (or to memory, for tests).
///
/// ```swift
/// let out = OutputWriter.standardOutput
/// out.write("id | name\n")
/// out.flush()
/// ```
/// Text is gathered in 64 KiB chunks before a `write(2)`, which is what lets 100,000 rows print fast.
/// Write errors (a closed pipe, a full disk) are remembered (``writeFailure``) and later writes
/// dropped. Another thread may stop the writes, one blocked on a slow reader included
/// (``stopWriting(signal:)``: Ctrl-C), until ``resumeWriting()``.
public final class OutputWriter: Sendable {
  private struct State {
    var buffer: [UInt8] = []
    var captured: [UInt8] = []
    /// A holding writer's text, in the chunks it was handed over in (a renderer's own chunk,
    /// kept as it is: never copied), and their size.
    var held: [HeldChunk] = []
    var heldBytes = 0
    /// The errno of the write that failed; nil while every byte was written.
    var failure: Int32?
    /// Whether that failure was said (``takeLoss()``).
    var failureSaid = false
  }

  private let fd: Int32?
  /// Whether `fd` was a terminal when the writer was made (asked once: renderers ask for every
  /// statement, and a descriptor does not stop being one).
  private let terminal: Bool
  /// Whether this writer holds its text for another (``holding()``).
  private let holds: Bool
  private let state = Mutex(State())
  /// Stops the writes from another thread, while `state` is held by a blocked write.
  private let stop = WriteStop()
  static let chunk = 1 << 16

  /// A writer to `fd`.
  public init(fd: Int32) {
    self.fd = fd
    terminal = isatty(fd) != 0
    holds = false
  }

  /// A writer that keeps everything in memory (`captured`).
  public init() {
    self.fd = nil
    terminal = false
    holds = false
  }

  private init(holding: Bool) {
    fd = nil
    terminal = false
    holds = holding
  }

  /// A writer that holds what it is given, as the chunks it came in (never one block copied as
  /// it grows), until ``write(heldBy:)`` passes it on: text rendered before it may be shown.
  static func holding() -> OutputWriter {
    OutputWriter(holding: true)
  }

  /// Standard output.
  public static let standardOutput = OutputWriter(fd: STDOUT_FILENO)
  /// Standard error.
  public static let standardError = OutputWriter(fd: STDERR_FILENO)

  /// Whether this writer goes to a terminal.
  public var isTerminal: Bool { terminal }

  /// Adds `text`; writes out once a chunk is full.
  public func write(_ text: String) {
    state.withLock { state in
      state.buffer.append(contentsOf: text.utf8)
      if state.buffer.count >= Self.chunk { drain(&state) }
    }
  }

  /// Adds `bytes`; writes out once a chunk is full.
  public func write(bytes: [UInt8]) {
    state.withLock { state in
      state.buffer.append(contentsOf: bytes)
      if state.buffer.count >= Self.chunk { drain(&state) }
    }
  }

  /// Whether this writer holds its text for another (``holding()``): a renderer then hands it
  /// its chunks whole (``hold(_:)``).
  var isHolding: Bool { holds }

  /// A holding writer keeps `chunk`, a renderer's, as it is, after what it holds: the renderer
  /// goes on in a new chunk, or in this one again (``reopenLastChunk()``).
  func hold(_ chunk: JSONTextBuffer) {
    state.withLock { state in
      drain(&state)
      state.held.append(HeldChunk(chunk))
      state.heldBytes += chunk.count
    }
  }

  /// A holding writer's last chunk, given back to a renderer to write on when it has room left
  /// (so that the chunks held are full, however few rows each renderer writes); else nil.
  func reopenLastChunk() -> JSONTextBuffer? {
    state.withLock { state in
      guard holds, state.buffer.isEmpty, let last = state.held.last?.text,
        last.count < Self.chunk
      else { return nil }
      state.held.removeLast()
      state.heldBytes -= last.count
      return last
    }
  }

  /// Adds `bytes`, a renderer's chunk: when nothing is gathered before them and they fill a
  /// chunk, they are written out from where they are, not copied into the writer's buffer first.
  func write(chunk bytes: UnsafeBufferPointer<UInt8>) {
    state.withLock { state in
      if state.buffer.isEmpty, bytes.count >= Self.chunk, !holds, fd != nil {
        send(UnsafeRawBufferPointer(bytes), &state.failure)
        return
      }
      state.buffer.append(contentsOf: bytes)
      if state.buffer.count >= Self.chunk { drain(&state) }
    }
  }

  /// Adds `block`, text made elsewhere and only read from now on, after what was gathered,
  /// without copying it: written out from where it is, or held as a chunk of its own.
  func write(block: JSONTextBuffer) {
    state.withLock { state in
      drain(&state)
      if holds {
        state.held.append(HeldChunk(block))
        state.heldBytes += block.count
        return
      }
      writeOut(block.written, &state)
    }
  }

  /// Writes `bytes` out now, after what was drained (an in-memory writer captures them).
  private func writeOut(_ bytes: UnsafeBufferPointer<UInt8>, _ state: inout State) {
    guard fd != nil else {
      if !stop.refuses() { state.captured.append(contentsOf: bytes) }
      return
    }
    send(UnsafeRawBufferPointer(bytes), &state.failure)
  }

  /// Writes `bytes` to `fd` unless a write failed before, or writes are stopped (then they are
  /// dropped, and no failure is remembered: ``resumeWriting()`` writes again).
  private func send(_ bytes: UnsafeRawBufferPointer, _ failure: inout Int32?) {
    guard let fd, failure == nil else { return }
    let failed = FileDescriptorIO.writeAll(fd, bytes) { stop.write($0, $1, $2) }
    if failed != ECANCELED { failure = failed }
  }

  /// Stops writing for `signal` (Ctrl-C, SIGTERM), from any thread, at once: a write under way
  /// returns where it is (what it wrote stays written; one waiting on a slow reader included),
  /// and what is written until ``resumeWriting()`` is dropped. Returns once no write is under
  /// way. Never from a thread writing here.
  public func stopWriting(signal: Int32) {
    stop.stop(signal: signal)
  }

  /// After a signal: writes go out only as far as the reader takes them at once, the rest
  /// dropped, a write under way that waits included (a standard error nobody reads holds snm
  /// up no longer once Ctrl-C came), until ``stopHurrying()``. Never from a thread writing here.
  public func hurry() {
    stop.hurry()
  }

  /// Writes wait on their reader again (``hurry()``).
  public func stopHurrying() {
    stop.unhurry()
  }

  /// The signal that stopped the writes (``stopWriting(signal:)``); nil while they go out.
  public var stoppedBy: Int32? {
    stop.signal
  }

  /// Writes again, after ``stopWriting(signal:)``: what was gathered meanwhile is dropped.
  /// Returns the signal that stopped them and whether text was lost (`cut`: not written, or
  /// written only in part); nil when they were not stopped.
  @discardableResult
  public func resumeWriting() -> (signal: Int32, cut: Bool)? {
    guard stop.signal != nil else { return nil }
    let dropped = state.withLock { state in
      defer { state.buffer.removeAll(keepingCapacity: true) }
      return !state.buffer.isEmpty
    }
    return stop.resume(dropping: dropped)
  }

  /// The errno of the write that failed (what was written after it was dropped); nil while
  /// every byte was written.
  public var writeFailure: Int32? {
    state.withLock { $0.failure }
  }

  /// What snm says as it ends when standard output lost text (a full disk, `>&-`, a device's
  /// error), written out first; nil when nothing was lost, or when the reader went away
  /// (EPIPE: `snm ... | head` ends output quietly). It said nothing and exited 0. Text written
  /// at once (`StandardStreams`: `--help`, `snm local list`) counts alike.
  /// Nil too when a script already said it, stopping (``takeLoss()``).
  public static func standardOutputLoss() -> String? {
    guard let code = standardOutput.takeLoss() ?? StandardStreams.outputFailure, code != EPIPE
    else { return nil }
    return OutputLoss.standardOutput(code).ending
  }

  /// The errno of a write that failed, written out first, once: it is then said, and asking
  /// again gives nil. A reader that went away (EPIPE) is not a loss: output ends quietly.
  func takeLoss() -> Int32? {
    state.withLock { state in
      drain(&state)
      guard let code = state.failure, code != EPIPE, !state.failureSaid else { return nil }
      state.failureSaid = true
      return code
    }
  }

  /// Writes out everything gathered.
  public func flush() {
    state.withLock { drain(&$0) }
  }

  /// What an in-memory writer has received, flushed or not.
  public var captured: String {
    state.withLock { state in
      drain(&state)
      return String(decoding: state.captured, as: UTF8.self)
    }
  }

  /// How many bytes a holding writer holds, what it gathered since its last chunk included.
  var heldBytes: Int {
    state.withLock { $0.heldBytes + $0.buffer.count }
  }

  /// Writes out, in order, everything the holding writer `held` was given, after what this one
  /// has gathered.
  func write(heldBy held: OutputWriter) {
    let chunks = held.state.withLock { state in
      held.drain(&state)
      return state.held
    }
    state.withLock { state in
      drain(&state)
      for chunk in chunks { writeOut(chunk.text.written, &state) }
    }
  }

  private func drain(_ state: inout State) {
    if holds {
      if !state.buffer.isEmpty {
        let chunk = JSONTextBuffer(capacity: state.buffer.count)
        state.buffer.withUnsafeBufferPointer { chunk.append($0) }
        state.held.append(HeldChunk(chunk))
      }
      state.heldBytes += state.buffer.count
      state.buffer = []
      return
    }
    defer { state.buffer.removeAll(keepingCapacity: true) }
    guard fd != nil else {
      if !stop.refuses() { state.captured.append(contentsOf: state.buffer) }
      return
    }
    state.buffer.withUnsafeBytes { send($0, &state.failure) }
  }
}

/// A chunk a holding ``OutputWriter`` keeps: written once by its renderer, then only read, under
/// the writer's lock.
private final class HeldChunk: @unchecked Sendable {
  let text: JSONTextBuffer

  init(_ text: JSONTextBuffer) {
    self.text = text
  }
}
