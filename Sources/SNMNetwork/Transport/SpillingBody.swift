import Foundation
import SNMWire

/// A 2xx body of rows past what memory holds, while it arrives (``BodySpill``): every byte goes
/// to a ``SpillFile``, and memory keeps only what the check on arrival reads again (the body's
/// start to the first row's last key, and the bytes from where the next run starts), so the
/// check goes on as the one pass over the whole body it was.
///
/// ```swift
/// let body = try SpillingBody(starting: held, policy: spill, checker: &checker)
/// try body.read(atMost: 65_536, { room in try socket.receive(into: room) }, checker: &checker)
/// let (bytes, shape) = try body.finish(checker: checker)   // the file's pages; nil: not JSON
/// ```
/// Throws ``PlainHTTPFailure`` (what both transports' bodies throw, ``ArrivingBody``): `.tooLarge`
/// past the policy's `mostBytes`, `.localFile` when the file cannot be made or written.
final class SpillingBody {
  private let file: SpillFile
  private let mostBytes: Int
  /// The bytes the checker runs over: the body with its `unneeded` stretches taken out.
  private let window: ReceivedBytes

  /// The window is trimmed once it holds this much (the checker's runs start every 64 KiB).
  static let trimmedPast = 1 << 20

  /// Goes on from `data`, the body so far (which it writes to the file).
  init(
    starting data: UnsafeBufferPointer<UInt8>, policy: BodySpill,
    checker: inout JSONStreamValidator
  )
    throws(PlainHTTPFailure)
  {
    guard data.count <= policy.mostBytes else { throw .tooLarge(policy.mostBytes) }
    do throws(TransportFileError) {
      let file = try SpillFile(directory: policy.directory)
      try Self.write(UnsafeRawBufferPointer(data), to: file, checker: checker)
      self.file = file
    } catch {
      throw .localFile(error)
    }
    mostBytes = policy.mostBytes
    // Only what the checker reads again is copied: the start to the first row's last key and
    // the bytes from where its next run starts.
    let unneeded = checker.unneeded ?? data.count..<data.count
    window = ReceivedBytes(capacity: data.count - unneeded.count + Self.trimmedPast)
    window.append(UnsafeBufferPointer(rebasing: data[..<unneeded.lowerBound]))
    window.append(UnsafeBufferPointer(rebasing: data[unneeded.upperBound...]))
    if !unneeded.isEmpty { checker.dropped(unneeded) }
  }

  /// Lets `read` put at most `most` of the body's next bytes after the window, then writes them
  /// to the file from there and checks them; returns what `read` returned.
  func read(
    atMost most: Int, _ read: (UnsafeMutableRawBufferPointer) throws(PlainHTTPFailure) -> Int,
    checker: inout JSONStreamValidator
  ) throws(PlainHTTPFailure) -> Int {
    // One byte past the limit at most, to know it was passed.
    let got = try window.read(atMost: min(most, mostBytes - file.bytes + 1), read)
    guard got > 0 else { return got }
    guard got <= mostBytes - file.bytes else { throw .tooLarge(mostBytes) }
    let arrived = UnsafeBufferPointer(rebasing: window.bytes[(window.count - got)...])
    do throws(TransportFileError) {
      try Self.write(UnsafeRawBufferPointer(arrived), to: file, checker: checker)
    } catch {
      throw .localFile(error)
    }
    checker.received(window.bytes)
    if window.count >= Self.trimmedPast { trim(&checker) }
    return got
  }

  /// Writes `bytes` to `file`; when that fails while the rows' text written as they were checked
  /// holds room on disk (``SpooledText``), the text is given up and the write tried again: the
  /// body's file needs the room, the rows can be written from it.
  private static func write(
    _ bytes: UnsafeRawBufferPointer, to file: SpillFile, checker: JSONStreamValidator
  ) throws(TransportFileError) {
    do {
      try file.write(bytes)
    } catch {
      guard let lines = checker.lines, lines.giveUp() else { throw error }
      file.dropPartialWrite()
      try file.write(bytes)
    }
  }

  private func trim(_ checker: inout JSONStreamValidator) {
    guard let unneeded = checker.unneeded else { return }
    window.removeSubrange(unneeded)
    checker.dropped(unneeded)
  }

  /// The whole body came: its bytes (the file's pages, mapped) and its shape, nil when it is
  /// not JSON.
  func finish(checker: JSONStreamValidator) throws(PlainHTTPFailure) -> (Data, JSONShape?) {
    let shape = checker.finish(window.bytes)
    do throws(TransportFileError) {
      return (try file.mapped(), shape)
    } catch {
      throw .localFile(error)
    }
  }
}
