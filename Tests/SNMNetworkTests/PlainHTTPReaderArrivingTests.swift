import Foundation
import SNMWire
import Testing

@testable import SNMNetwork

/// Notes what the reader hands over: each call's count, and whether its bytes held exactly that
/// many whole elements.
private struct Recorder: ArrivingElementsConsumer {
  var counts: [Int] = []
  var exact = true

  mutating func take(_ checked: UnsafeBufferPointer<UInt8>, elements count: Int) {
    counts.append(count)
    let read = try? JSONElements.withElements(of: checked, from: .start) { elements in
      var read = 0
      while read < count, try elements.next() != nil { read += 1 }
      return read
    }
    if read != count || checked.last != UInt8(ascii: ",") { exact = false }
  }
}

/// A body of `count` rows, about 90 bytes each.
private func rows(_ count: Int) -> String {
  let rows = (0..<count).map {
    #"{"id":\#($0),"name":"dog \"\#($0)\", 두부","traits":{"a":[1,2]}}"#
  }
  return "[" + rows.joined(separator: ",") + "]"
}

/// `body` as a chunked answer with `status`, the chunks `size` bytes.
private func chunked(_ body: String, status: String = "200 OK", size: Int = 4096) -> [[UInt8]] {
  let bytes = Array(body.utf8)
  var parts = [Array("HTTP/1.1 \(status)\r\nTransfer-Encoding: chunked\r\n\r\n".utf8)]
  for start in stride(from: 0, to: bytes.count, by: size) {
    let chunk = bytes[start..<min(bytes.count, start + size)]
    parts.append(Array(String(chunk.count, radix: 16).utf8) + [13, 10] + chunk + [13, 10])
  }
  return parts
}

/// Reads `parts` one at a time as a connection would hand them over, then the end.
private func read(_ parts: [[UInt8]], arriving: ArrivingElements?) throws(PlainHTTPFailure)
  -> PlainHTTPAnswer
{
  var reader = PlainHTTPReader(buffered: [], maximumBodyBytes: 1 << 24, arriving: arriving)
  var next = 0
  return try reader.readAnswer(isHead: false) { () throws(PlainHTTPFailure) -> [UInt8] in
    defer { next += 1 }
    return next < parts.count ? parts[next] : []
  }
}

private let recording = ArrivingElements { Recorder() }

@Suite struct PlainHTTPReaderArrivingTests {
  @Test func theElementsOfARowsBodyAreHandedOverAsTheyAreChecked() throws {
    let answer = try read(
      chunked(rows(5000) + "\n") + [Array("0\r\n\r\n".utf8)], arriving: recording)
    let recorder = try #require(answer.arrived as? Recorder)
    #expect(recorder.exact, "a stretch held a part of an element, or more than it said")
    #expect(recorder.counts == recorder.counts.sorted())
    #expect(Set(recorder.counts).count >= 3, "handed over once 64 KiB more came, not once")
    #expect(try #require(recorder.counts.last) < 5000, "the last stretch is checked at the end")
    #expect(answer.checkedShape == JSONShape(kind: .array, count: 5000, uniformObjects: true))
  }

  @Test func nothingIsHandedBackForABodyThatGoesBadOrAnErrorOrWithoutAConsumer() throws {
    let body = rows(5000)
    // Rows, then bytes that are not JSON: the rows taken are not handed back.
    let bad = try read(
      chunked(String(body.dropLast()) + ",{\"id\":x}]") + [Array("0\r\n\r\n".utf8)],
      arriving: recording)
    #expect(bad.arrived == nil && bad.checkedShape == nil)
    let failed = try read(
      chunked(body, status: "500 Internal Server Error") + [Array("0\r\n\r\n".utf8)],
      arriving: recording)
    #expect(failed.arrived == nil)
    let unasked = try read(chunked(body) + [Array("0\r\n\r\n".utf8)], arriving: nil)
    #expect(unasked.arrived == nil && unasked.checkedShape != nil)
  }

  /// Once the decoder knows the next bytes are body they are read straight into it, and the few
  /// after them (the next chunk's line) into the decoder: however the stream is cut (a line cut
  /// anywhere, a read spanning many chunks), the answer is the same, framed by a length, by
  /// chunks or by the end of the stream.
  @Test func aBodyReadStraightInIsTheSameHoweverTheStreamIsCut() throws {
    let body = rows(2000)
    let bytes = Array(body.utf8)
    let streams: [[UInt8]] = [
      Array(chunked(body, size: 700).joined()) + Array("0\r\n\r\n".utf8),
      Array(chunked(body, size: 70_000).joined()) + Array("0\r\n\r\n".utf8),
      Array("HTTP/1.1 200 OK\r\nContent-Length: \(bytes.count)\r\n\r\n".utf8) + bytes,
      Array("HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n".utf8) + bytes,
    ]
    for (index, stream) in streams.enumerated() {
      for size in [1, 9, 511, 512, 513, 4096, 65_537, stream.count] {
        let pieces = stride(from: 0, to: stream.count, by: size).map {
          Array(stream[$0..<min(stream.count, $0 + size)])
        }
        // No consumer: the recorder reads every element again at each call, a byte at a time.
        let answer = try read(pieces, arriving: nil)
        #expect(answer.body == Data(bytes), "stream \(index), pieces of \(size)")
        #expect(
          answer.checkedShape == JSONShape(kind: .array, count: 2000, uniformObjects: true),
          "stream \(index), pieces of \(size)")
      }
    }
  }

  @Test func aBodyCutOffHalfWayIsNoAnswer() {
    let parts = chunked(rows(5000))
    #expect(throws: PlainHTTPFailure.self) {
      try read(Array(parts[..<(parts.count / 2)]), arriving: recording)
    }
  }
}
