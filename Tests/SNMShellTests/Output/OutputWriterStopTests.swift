import Dispatch
import Foundation
import Testing

@testable import SNMShell

/// Ctrl-C stops standard output at once, a write waiting on a reader that takes nothing included
/// (``OutputWriter/stopWriting(signal:)``): what was written stays, the rest is dropped, and no
/// write failure is remembered.
@Suite(.timeLimit(.minutes(2))) struct OutputWriterStopTests {
  /// A pipe nobody reads yet, and a writer to it.
  final class Stalled: @unchecked Sendable {
    let read: Int32
    let writer: OutputWriter
    /// How much the pipe holds (F_GETPIPE_SZ).
    let capacity: Int32

    init() throws {
      var ends: [Int32] = [0, 0]
      try #require(pipe(&ends) == 0)
      read = ends[0]
      writer = OutputWriter(fd: ends[1])
      capacity = fcntl(ends[1], 1032)
    }

    /// Bytes waiting in the pipe.
    var queued: Int32 {
      var count: Int32 = 0
      _ = ioctl(read, UInt(FIONREAD), &count)
      return count
    }

    /// Everything in the pipe now.
    func drain() -> [UInt8] {
      var got: [UInt8] = []
      var buffer = [UInt8](repeating: 0, count: 1 << 16)
      while queued > 0 {
        let count = Foundation.read(read, &buffer, buffer.count)
        guard count > 0 else { break }
        got += buffer[0..<count]
      }
      return got
    }
  }

  /// Writes `text` (and flushes) on a thread of its own that blocks every signal it may, as
  /// Dispatch's threads do; the semaphore is signalled when the write returns.
  func writeOnABlockingThread(_ writer: OutputWriter, _ text: [UInt8]) -> DispatchSemaphore {
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
      var all = sigset_t()
      sigfillset(&all)
      pthread_sigmask(SIG_BLOCK, &all, nil)
      writer.write(bytes: text)
      writer.flush()
      done.signal()
    }
    thread.start()
    return done
  }

  @Test func aWriteWaitingOnAReaderStopsWhereItIsAndTheRestIsDropped() throws {
    let stalled = try Stalled()
    defer { close(stalled.read) }
    let text = [UInt8](repeating: UInt8(ascii: "x"), count: 1 << 20)
    let written = writeOnABlockingThread(stalled.writer, text)
    while stalled.queued < stalled.capacity { usleep(1000) }  // full: the write waits on it
    let stopped = DispatchSemaphore(value: 0)
    Thread {
      stalled.writer.stopWriting(signal: SIGINT)
      stopped.signal()
    }.start()
    let returned = written.wait(timeout: .now() + 60) == .success
    let stopReturned = stopped.wait(timeout: .now() + 60) == .success
    let got = stalled.drain()
    if !returned { _ = written.wait(timeout: .now() + 60) }  // unblocked by the drain
    #expect(returned && stopReturned)
    #expect(got.count == Int(stalled.capacity))
    #expect(stalled.writer.stoppedBy == SIGINT)
    stalled.writer.write("dropped while stopped\n")
    stalled.writer.flush()
    #expect(stalled.drain().isEmpty)
    #expect(stalled.writer.writeFailure == nil)
    stalled.writer.write("gathered, then dropped by the resume")
    let resumed = stalled.writer.resumeWriting()
    #expect(resumed?.signal == SIGINT && resumed?.cut == true)
    #expect(stalled.writer.stoppedBy == nil)
    stalled.writer.write("printed again\n")
    stalled.writer.flush()
    #expect(String(decoding: stalled.drain(), as: UTF8.self) == "printed again\n")
    #expect(stalled.writer.resumeWriting() == nil)
  }

  @Test func aStopWithNothingLeftToWriteCutsNothing() throws {
    let stalled = try Stalled()
    defer { close(stalled.read) }
    stalled.writer.write("all of it\n")
    stalled.writer.flush()
    stalled.writer.stopWriting(signal: SIGTERM)
    stalled.writer.stopWriting(signal: SIGINT)  // the first signal is kept
    let resumed = stalled.writer.resumeWriting()
    #expect(resumed?.signal == SIGTERM && resumed?.cut == false)
    #expect(String(decoding: stalled.drain(), as: UTF8.self) == "all of it\n")
  }

  @Test func aWriterToMemoryDropsWhatComesWhileStopped() {
    let writer = OutputWriter()
    writer.write("kept\n")
    writer.flush()
    writer.stopWriting(signal: SIGINT)
    writer.write("dropped\n")
    #expect(writer.captured == "kept\n")
    #expect(writer.resumeWriting()?.cut == true)
    writer.write("again\n")
    #expect(writer.captured == "kept\nagain\n")
  }
}
