import Foundation
import SNMWire
import Testing

@testable import SNMNetwork

/// The chunk framing of an https:// answer libcurl reads (``CurlChunkFraming``, fed the body's
/// bytes as they came) is read as the plain reader reads the same answer over http://: the same
/// verdict, in the same words, however the bytes are cut.
@Suite struct CurlChunkFramingTests {
  static let head = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
  static let big = String(repeating: "x", count: 100_000)

  /// What the plain reader makes of `head` + `body`: nil when it reads the answer.
  func plainVerdict(_ body: String, limit: Int) -> PlainHTTPFailure? {
    var reader = PlainHTTPReader(buffered: [], maximumBodyBytes: limit)
    var sent = false
    do throws(PlainHTTPFailure) {
      _ = try reader.readAnswer(isHead: false) { () throws(PlainHTTPFailure) -> [UInt8] in
        defer { sent = true }
        return sent ? [] : Array((Self.head + body).utf8)
      }
      return nil
    } catch {
      return error
    }
  }

  /// What ``CurlChunkFraming`` makes of `body` in pieces of `size` bytes: nil when it reads it
  /// to its end.
  func framingVerdict(_ body: String, limit: Int, pieces size: Int) -> PlainHTTPFailure? {
    var framing = CurlChunkFraming(limit: limit)
    let bytes = Array(body.utf8)
    do throws(PlainHTTPFailure) {
      for start in stride(from: 0, to: bytes.count, by: size) {
        try bytes[start..<min(bytes.count, start + size)].withUnsafeBufferPointer {
          (piece) throws(PlainHTTPFailure) in try framing.received(piece)
        }
      }
    } catch {
      return error
    }
    return framing.ended ? nil : .closedEarly(receivedNothing: false)
  }

  @Test(arguments: [
    "5\r\n[1,2]\r\n0\r\n\r\n",
    "3;ext=1\r\n[1,\r\n2\r\n2]\r\n0\r\nX-Trailer: t\r\n\r\n",
    "000000000000000a \t;x\r\n[{\"id\":1}]\r\n0\r\n\r\n",
    "A\n[{\"id\":1}]\n0\n\n",
    "186a0\r\n\(big)\r\n186a0\r\n\(big)\r\n0\r\n\r\n",
    "5\r\n[1,2,3,4]\r\n0\r\n\r\n",
    "+9\r\n[1,2,3,4]\r\n0\r\n\r\n",
    "zz\r\n[]\r\n0\r\n\r\n",
    "9 9\r\n[1,2,3,4]\r\n0\r\n\r\n",
    " 9\r\n[1,2,3,4]\r\n0\r\n\r\n",
    "8000000000000000\r\n[]\r\n0\r\n\r\n",
    String(repeating: "0", count: 24) + "9\r\n[1,2,3,4]\r\n0\r\n\r\n",
    "7fffffffffffffff\r\nabc",
    "40000\r\n[1]",
    "186a0\r\n\(big)\r\n186a0\r\n\(big)\r\n186a0\r\n",
    "1;" + String(repeating: "e", count: 2000) + "\r\nx\r\n0\r\n\r\n",
    "1\r\nx\r\n0\r\n" + String(repeating: "T", count: 70_000) + "\r\n\r\n",
    "1\r\nx\r\n0\r\nX-T: a\rb\r\n\r\n",
    "1\r\nx\r\n0\r\nX-T: t\r\r\n\r\n",
    "1\r\nx\r\n0\r\nno colon\r\n\r\n",
    "1\r\nx\r\n0\r\n: x\r\n\r\n",
    "1\r\nx\r\n0\r\nX T: x\r\n\r\n",
    "1\r\nx\r\n0\r\nX-T: " + String(repeating: "v", count: 4_089) + "\r\n\r\n",
  ])
  func readsAsThePlainReaderDoes(body: String) {
    let limit = 250_000
    let plain = plainVerdict(body, limit: limit)
    // Byte by byte only where it is quick (a line is looked for again at each byte).
    let sizes = body.utf8.count < 1000 ? [1, 3, 7, 512] : [511, 4096]
    for size in [body.utf8.count] + sizes {
      #expect(framingVerdict(body, limit: limit, pieces: size) == plain, "pieces of \(size)")
    }
  }

  /// Bytes after the last chunk are not its to read (libcurl drops them with the connection).
  @Test func bytesAfterTheEndAreNotRead() {
    var framing = CurlChunkFraming(limit: 1 << 20)
    let bytes = Array("2\r\n[]\r\n0\r\n\r\nHTTP/1.1 200 OK\r\nzz\r\n".utf8)
    #expect(throws: Never.self) {
      try bytes.withUnsafeBufferPointer { (all) throws(PlainHTTPFailure) in
        try framing.received(all)
      }
    }
    #expect(framing.ended)
  }

  /// The status of curl's status lines, read on their bytes as the plain decoder reads them
  /// (nil: refused; libcurl takes `200\tOK`, `200OK` and a second space as 200).
  @Test(
    arguments: [
      ("HTTP/1.1 200 OK", 200), ("HTTP/2 404", 404), ("HTTP/2 200 ", 200), ("HTTP/1.1 204", 204),
      ("HTTP/1.0 100 Continue", 100), ("HTTP/1.1 599 x y", 599), ("HTTP/1.1  301 Moved", nil),
      ("HTTP/1.1 2x0 Odd", nil), ("HTTP/1.1", nil), ("HTTP/1.1 ", nil), ("HTTP/1.1 200\tOK", nil),
      ("HTTP/1.1 200OK", nil), ("HTTP/1.1 2000 OK", nil), ("HTTP/1.1 20 OK", nil),
      ("HTTP/1.1 099 Low", nil), ("HTTP/1.1 9999999999 Big", nil),
    ] as [(String, Int?)])
  func theStatusOfAStatusLine(line: String, status: Int?) {
    #expect(
      Array(line.utf8).withUnsafeBufferPointer { HTTPDecoder.status(ofStatusLine: $0) } == status)
  }
}
