import Foundation
import SNMTestSupport
import SNMWire
import Testing

@testable import SNMNetwork

/// A body of `count` rows, about 60 bytes each.
private func rows(_ count: Int) -> String {
  "["
    + (0..<count).map { #"{"id":\#($0),"name":"dog \"\#($0)\", 두부","tags":[1]}"# }
    .joined(separator: ",") + "]"
}

/// `body` as an HTTP/1.1 answer with `status`: with its length, or chunked (64 KiB chunks,
/// the last one left out when not `whole`).
private func answer(_ body: String, status: Int = 200, chunked: Bool = false, whole: Bool = true)
  -> String
{
  let head = "HTTP/1.1 \(status) X\r\nContent-Type: application/json\r\n"
  guard chunked else { return head + "Content-Length: \(body.utf8.count)\r\n\r\n" + body }
  let bytes = Array(body.utf8)
  var text = head + "Transfer-Encoding: chunked\r\n\r\n"
  for start in stride(from: 0, to: bytes.count, by: 65536) {
    let piece = bytes[start..<min(bytes.count, start + 65536)]
    text +=
      String(piece.count, radix: 16) + "\r\n" + String(decoding: piece, as: UTF8.self) + "\r\n"
  }
  return whole ? text + "0\r\n\r\n" : text
}

/// Counts the elements handed over while the body arrives.
private struct CountElements: ArrivingElementsConsumer {
  var seen = 0
  mutating func take(_ checked: UnsafeBufferPointer<UInt8>, elements count: Int) {
    seen = count
  }
}

/// What a 2xx array of rows does past a spill's bound (``BodySpill``, ``ArrivingBody``), the same
/// over each transport: the plain one, and libcurl (`https://`'s, here over the loopback's
/// `http://`).
@Suite(.timeLimit(.minutes(1))) struct TransportSpillTests {
  let folder: String

  init() throws {
    folder = NSTemporaryDirectory() + "snm-transport-spill-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
  }

  /// Sends one request for `raw` (the loopback server's bytes, then it closes), spilling past
  /// 128 KiB into `directory` (at most `most` bytes), elements counted.
  func send(
    _ raw: String, _ kind: TransportKind, most: Int = 1 << 30, directory: String? = nil
  ) async throws -> SNMResponse {
    let server = try LoopbackHTTPServer { _ in .garbage(raw) }
    defer { server.stop() }
    let spill = BodySpill(memoryBytes: 128 << 10, mostBytes: most, directory: directory ?? folder)
    let request = TransportRequest(
      method: .get, url: server.baseURL + "/rest/v1/walks", timeout: 20,
      maximumBodyBytes: 256 << 10)
    let transport = kind.make()
    return try await ArrivingElements.$current.withValue(
      ArrivingElements(spill: spill) { CountElements() }
    ) {
      try await transport.send(request)
    }
  }

  /// Nothing is left in the folder (every spill file was unlinked when it was made).
  func expectEmptyFolder() {
    #expect((try? FileManager.default.contentsOfDirectory(atPath: folder)) == [])
    try? FileManager.default.removeItem(atPath: folder)
  }

  @Test(arguments: TransportKind.all)
  func rowsPastTheBoundAreTheirFileMappedCheckedWhole(_ kind: TransportKind) async throws {
    defer { expectEmptyFolder() }
    // 20,000 rows (1.2 MB): past the 256 KiB held in memory, so taken only because they spill.
    let body = rows(20_000)
    for chunked in [false, true] {
      let response = try await send(answer(body, chunked: chunked), kind)
      #expect(response.spilled, "chunked: \(chunked)")
      #expect(response.body == Data(body.utf8))
      #expect(response.checkedShape != nil)
      // The elements checked before the bound were handed over; none after.
      let seen = try #require(response.arrived as? CountElements).seen
      #expect(seen > 0)
      let document = try response.document()
      #expect(document.fileBacked)
    }
  }

  @Test(arguments: TransportKind.all)
  func aBodyUnderTheBoundIsCheckedAsItArrivesAndStaysInMemory(_ kind: TransportKind)
    async throws
  {
    defer { expectEmptyFolder() }
    // 1,500 rows (90 KB): past the 64 KiB that start a check on arrival, under the bound.
    let body = rows(1_500)
    let response = try await send(answer(body, chunked: true), kind)
    #expect(!response.spilled && response.body == Data(body.utf8))
    #expect(response.checkedShape != nil)
    #expect(((response.arrived as? CountElements)?.seen ?? 0) > 0)
    // A small one is left to be checked whole when it is used.
    let small = try await send(answer(rows(100)), kind)
    #expect(!small.spilled && small.checkedShape == nil && small.arrived == nil)
  }

  @Test(arguments: TransportKind.all)
  func anotherStatusNeverSpills(_ kind: TransportKind) async throws {
    defer { expectEmptyFolder() }
    // Past the memory limit, a 400's rows are refused rather than spilled.
    await #expect(throws: SNMNetworkError.self) {
      try await send(answer(rows(20_000), status: 400, chunked: true), kind)
    }
    let small = try await send(answer(rows(100), status: 404), kind)
    #expect(small.status == 404 && !small.spilled && small.arrived == nil)
  }

  @Test(arguments: TransportKind.all)
  func aSpilledBodyThatIsNotJSONFailsWithoutParsingIt(_ kind: TransportKind) async throws {
    defer { expectEmptyFolder() }
    let body = String(rows(20_000).dropLast()) + ",}]"
    let error = await #expect(throws: SNMNetworkError.self) {
      try await send(answer(body, chunked: true), kind)
    }
    guard case .malformedResponse(_, let reason)? = error else {
      Issue.record("expected malformedResponse, got \(String(describing: error))")
      return
    }
    #expect(reason == "the body is not JSON (\(body.utf8.count) bytes, checked as they came)")
  }

  @Test(arguments: TransportKind.all)
  func aSpilledBodyCutOffFails(_ kind: TransportKind) async throws {
    defer { expectEmptyFolder() }
    let error = await #expect(throws: SNMNetworkError.self) {
      try await send(answer(rows(20_000), chunked: true, whole: false), kind)
    }
    guard case .malformedResponse(_, let reason)? = error else {
      Issue.record("expected malformedResponse, got \(String(describing: error))")
      return
    }
    #expect(reason.hasPrefix("the answer was cut off ("), "\(reason)")
  }

  /// Past the spill's own limit, announced or not, the answer is refused with that limit.
  @Test(arguments: TransportKind.all)
  func aBodyPastTheSpillsLimitIsRefused(_ kind: TransportKind) async throws {
    defer { expectEmptyFolder() }
    for chunked in [false, true] {
      let error = await #expect(throws: SNMNetworkError.self) {
        try await send(answer(rows(20_000), chunked: chunked), kind, most: 1_000_000)
      }
      guard case .malformedResponse(_, let reason)? = error else {
        Issue.record("expected malformedResponse, got \(String(describing: error))")
        continue
      }
      #expect(
        reason == "the answer is larger than 1000000 bytes (ask for fewer rows: limit, or a range)")
    }
  }

  @Test(arguments: TransportKind.all)
  func aSpillThatCannotBeMadeNamesTheFolder(_ kind: TransportKind) async throws {
    defer { expectEmptyFolder() }
    let missing = folder + "/no-such-folder"
    await #expect(
      throws: SNMNetworkError.localFile(
        TransportFileError(
          path: missing, call: "make a temporary file for the answer in",
          reason: "No such file or directory (TMPDIR chooses the folder)"))
    ) {
      try await send(answer(rows(20_000), chunked: true), kind, directory: missing)
    }
  }
}
