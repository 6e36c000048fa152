import Synchronization
import Testing

@testable import SNMShell

/// The prompt loop's reading thread: a pipe is read ahead of the loop (a line there already is
/// handed over at once), in order, never further than its limit.
@Suite(.timeLimit(.minutes(1))) struct LineReaderThreadTests {
  /// Reads `count` lines through `thread` one after another, as the prompt loop does.
  func read(_ count: Int, from thread: LineReaderThread) async -> [LineInput] {
    var lines: [LineInput] = []
    for _ in 0..<count {
      lines.append(
        await withCheckedContinuation { continuation in
          thread.read(prompt: "", pending: "") { continuation.resume(returning: $0) }
        })
    }
    return lines
  }

  @Test func aPipeIsReadInOrderToItsEndAndStaysThere() async {
    let lines = (0..<1000).map { "echo '\($0)'" }
    let thread = LineReaderThread(reader: PlainLineReader(next: ShellStatementTests.feed(lines)))
    defer { thread.finish() }
    let read = await read(1002, from: thread)
    #expect(read == lines.map { .line($0) } + [.end, .end])
  }

  @Test func aPipeIsReadAheadUpToItsLimitAndNoFurther() async throws {
    let served = Atomic(0)
    let endless = PlainLineReader(next: { String(served.add(1, ordering: .relaxed).newValue) })
    let thread = LineReaderThread(reader: endless)
    defer { thread.finish() }
    #expect(await read(1, from: thread) == [.line("1")])
    let limit = 1 + LineReaderThread.readAhead
    while served.load(ordering: .relaxed) < limit { try await Task.sleep(for: .milliseconds(5)) }
    try await Task.sleep(for: .milliseconds(50))
    #expect(served.load(ordering: .relaxed) == limit)
    // Taking a line makes room for one more.
    #expect(await read(1, from: thread) == [.line("2")])
    while served.load(ordering: .relaxed) < limit + 1 {
      try await Task.sleep(for: .milliseconds(5))
    }
    try await Task.sleep(for: .milliseconds(50))
    #expect(served.load(ordering: .relaxed) == limit + 1)
  }
}
