import Dispatch
import Foundation
import SNMTestSupport
import Synchronization
import Testing

@testable import SNMShell

/// Signals in tests are scoped to the source a test gives its shell: tests running side by side
/// never hear each other's signals, and no simulated signal can end the test process.
@Suite(.timeLimit(.minutes(1))) struct InterruptSignalsTests {
  @Test func aSignalNobodyWatchesIsDroppedAndTheProcessGoesOn() {
    let signals = InterruptSignals()
    #expect(signals.simulate(SIGTERM) == 0)
    #expect(signals.simulate(SIGINT) == 0)
  }

  @Test func aSignalReachesOnlyTheWatchersOfItsOwnSource() async {
    let mine = InterruptSignals()
    let other = InterruptSignals()
    let heard = Mutex<[Int32]>([])
    let counts = await mine.watch(onSignal: { signal in heard.withLock { $0.append(signal) } }) {
      (other.simulate(SIGINT), mine.simulate(SIGTERM))
    }
    #expect(counts == (0, 1))
    #expect(heard.withLock { $0 } == [SIGTERM])
    #expect(mine.watcherCount == 0)
  }

  @Test func sigtermAtThePromptEndsTheLoopWith143() async throws {
    let (code, heard) = try await promptLoop(interactive: true, signal: SIGTERM)
    #expect(code == .terminated)
    #expect(heard == 1)
  }

  @Test func sigintWhileReadingAPipeEndsTheLoopWith130() async throws {
    let (code, heard) = try await promptLoop(interactive: false, signal: SIGINT)
    #expect(code == .interrupted)
    #expect(heard == 1)
  }

  @Test func sigintAtThePromptIsIgnored() async throws {
    let (code, heard) = try await promptLoop(interactive: true, signal: SIGINT)
    // The reader was released afterwards with Ctrl-D: the loop went on reading until then.
    #expect(code == .success)
    #expect(heard == 1)
  }

  @Test func aScriptStopsOnlyForItsOwnShellsSignal() async throws {
    let server = try LoopbackHTTPServer { request in
      request.target.contains("slow") ? .hang : .respond(status: 200, body: "[]")
    }
    defer { server.stop() }
    let stopped = try RequestRig(server)
    let bystander = try RequestRig(server)
    let script = Task {
      await stopped.shell.stoppingOnSignals {
        await stopped.shell.run(text: "rpc slow\necho 'not reached'", name: "a.snm")
      }
    }
    while !server.requests.contains(where: { $0.target.contains("slow") }) {
      try await Task.sleep(for: .milliseconds(10))
    }
    #expect(bystander.signals.simulate(SIGINT) == 0)
    // One watcher, the script's: its request runs in the script's own task, which the script's
    // watcher cancels (no task and watcher of its own per request).
    #expect(stopped.signals.simulate(SIGINT) == 1)
    #expect(await script.value == .interrupted)
    #expect(stopped.errors.captured.contains("snm: interrupted at a.snm:1:1: rpc slow"))
    #expect(!stopped.output.captured.contains("not reached"))
  }

  /// Runs a prompt loop over a reader that blocks, sends `signal` once the loop is reading, then
  /// releases the reader with Ctrl-D; returns the loop's exit code and how many watchers heard it.
  func promptLoop(interactive: Bool, signal: Int32) async throws -> (ExitCode, Int) {
    let server = try LoopbackHTTPServer { _ in .respond(status: 500) }
    defer { server.stop() }
    let rig = try RequestRig(server)
    let reader = BlockedLines(interactive: interactive)
    let loop = Task { await rig.shell.runPrompt(reader: reader) }
    while !reader.isReading { try await Task.sleep(for: .milliseconds(5)) }
    let heard = rig.signals.simulate(signal)
    try await Task.sleep(for: .milliseconds(50))
    reader.release()
    return (await loop.value, heard)
  }
}

/// A reader whose `readLine` blocks until the test releases it, then answers Ctrl-D.
final class BlockedLines: LineReader {
  let isInteractive: Bool
  private let released = DispatchSemaphore(value: 0)
  private let reading = Atomic<Bool>(false)

  init(interactive: Bool) { isInteractive = interactive }

  /// Whether a `readLine` is waiting now.
  var isReading: Bool { reading.load(ordering: .acquiring) }

  func readLine(prompt: String, pending: String) -> LineInput {
    reading.store(true, ordering: .releasing)
    released.wait()
    reading.store(false, ordering: .releasing)
    return .end
  }

  func remember(_ statement: String) {}

  /// Lets the waiting `readLine` return.
  func release() { released.signal() }
}
