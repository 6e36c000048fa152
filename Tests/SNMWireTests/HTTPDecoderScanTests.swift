import Testing

@testable import SNMWire

/// A line or head sent a byte at a time is searched once: the bytes the decoder examines stay
/// within twice the bytes fed (searching again from the first unread byte at every read examined
/// the square: 32 KiB of trailer lines, the most a request may carry, a billion bytes looked at).
@Suite struct HTTPDecoderScanTests {
  /// What decoding `text` a byte at a time gives (the parts' kinds, or the refusal) and how many
  /// bytes the decoder examined.
  func fedByteByByte(_ text: String, reading: HTTPDecoder.Reading = .requests) -> (
    parts: [String], examined: Int
  ) {
    var decoder = HTTPDecoder(
      reading: reading, limits: reading == .requests ? .requests : .responses)
    var parts: [String] = []
    do {
      for byte in text.utf8 {
        decoder.append(contentsOf: [byte])
        while let part = try decoder.next() {
          switch part {
          case .requestHead: parts.append("request")
          case .responseHead(let head): parts.append("\(head.status)")
          case .body(let bytes): parts.append("body \(bytes.count)")
          case .end: parts.append("end")
          }
        }
      }
    } catch {
      parts.append("refused \(error.status)")
    }
    return (parts, decoder.scan.examined)
  }

  @Test func aTrailerByteByByteIsExaminedOnce() {
    // 32 KiB of trailer lines, each within the 4,093 bytes a trailer line may have.
    let trailer = (0..<8).map { "X-Padding-\($0): " + String(repeating: "a", count: 3_980) }
      .joined(separator: "\r\n")
    let text =
      "POST /rest/v1/t HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
      + "3\r\nabc\r\n0\r\n\(trailer)\r\n\r\n"
    let (parts, examined) = fedByteByByte(text)
    #expect(parts == ["request", "body 1", "body 1", "body 1", "end"])
    #expect(examined <= 2 * text.utf8.count)
  }

  @Test func aHeadByteByByteIsExaminedOnce() {
    let field = "Authorization: Bearer " + String(repeating: "b", count: 30_000)
    let text = "GET /rest/v1/t HTTP/1.1\r\nHost: x\r\n\(field)\r\n\r\n"
    let (parts, examined) = fedByteByByte(text)
    #expect(parts == ["request", "end"])
    #expect(examined <= 2 * text.utf8.count)
  }

  @Test func aLongStartLineByteByByteIsExaminedOnce() {
    let text = "GET /" + String(repeating: "p", count: 16_000) + " HTTP/1.1\r\nHost: x\r\n\r\n"
    let (parts, examined) = fedByteByByte(text)
    #expect(parts == ["request", "end"])
    #expect(examined <= 2 * text.utf8.count)
  }

  @Test func leadingEmptyLinesByteByByteAreExaminedOnce() {
    let text = String(repeating: "\r\n", count: 10_000) + "GET / HTTP/1.1\r\nHost: x\r\n\r\n"
    let (parts, examined) = fedByteByByte(text)
    #expect(parts == ["request", "end"])
    #expect(examined <= 2 * text.utf8.count)
  }

  @Test func aStartLineTooLongIsStillRefusedByteByByte() {
    let text = "GET /" + String(repeating: "p", count: 17_000)
    #expect(fedByteByByte(text).parts == ["refused 414"])
  }

  @Test func aHeadTooLargeIsStillRefusedByteByByte() {
    let text = "GET / HTTP/1.1\r\nA: " + String(repeating: "v", count: 50_000)
    #expect(fedByteByByte(text).parts == ["refused 431"])
  }

  @Test func aResponseHeadAndChunkLinesByteByByteAreExaminedOnce() {
    let text =
      "HTTP/1.1 200 OK\r\nX-Long: " + String(repeating: "c", count: 20_000) + "\r\n"
      + "Transfer-Encoding: chunked\r\n\r\n2;" + String(repeating: "e", count: 1000)
      + "\r\nhi\r\n0\r\n\r\n"
    let (parts, examined) = fedByteByByte(text, reading: .responses)
    #expect(parts == ["200", "body 1", "body 1", "end"])
    #expect(examined <= 2 * text.utf8.count)
  }

  /// How many bytes of `text`, fed a byte at a time, the decoder took before it refused, and
  /// the refusal's status (nil: it did not refuse).
  func bytesTakenBeforeRefusal(_ text: String) -> (taken: Int, status: Int?) {
    var decoder = HTTPDecoder(reading: .requests, limits: .requests)
    var taken = 0
    do {
      for byte in text.utf8 {
        decoder.append(contentsOf: [byte])
        taken += 1
        while try decoder.next() != nil {}
      }
    } catch {
      return (taken, error.status)
    }
    return (taken, nil)
  }

  /// Empty lines before a request line, or lines of CRs, have no content for the head's limits
  /// to measure: without a limit on the bytes kept, a connection sending them was kept whole
  /// until the request's timeout (200 MiB in a second, measured on the gateway).
  @Test func aHeadOfLineEndsOnlyIsRefusedWithinTheHeadLimit() {
    let limit = HTTPLimits.requests.maxStartLineBytes + HTTPLimits.requests.maxHeaderBytes
    let emptyLines = bytesTakenBeforeRefusal(String(repeating: "\r\n", count: 40_000))
    #expect(emptyLines.status == 400)
    #expect(emptyLines.taken <= limit + 5)
    let linesOfCRs = bytesTakenBeforeRefusal(String(repeating: "\r\r\n", count: 30_000))
    #expect(linesOfCRs.status == 431)
    #expect(linesOfCRs.taken <= limit + 5)
    let startLineAfterThem = bytesTakenBeforeRefusal(
      String(repeating: "\n", count: limit) + "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
    #expect(startLineAfterThem.status == 431)  // they count with the head once it has content
  }

  /// Empty lines before a request line count against the whole head's limits (16 KiB start line
  /// + 32 KiB fields, and the four bytes of the empty line that ends it), not the fields' alone:
  /// 16,278 CRLFs before a 262-byte request were 431.
  @Test(arguments: [(24_564, nil), (24_565, 431)] as [(Int, Int?)])
  func emptyLinesBeforeARequestCountAgainstTheHeadsLimits(count: Int, status: Int?) {
    let request = "GET / HTTP/1.1\r\nHost: xy\r\n\r\n"  // 28 bytes: 49,156 in all with 24,564
    var decoder = HTTPDecoder(reading: .requests, limits: .requests)
    decoder.append(contentsOf: Array((String(repeating: "\r\n", count: count) + request).utf8))
    do {
      let part = try decoder.next()
      guard case .requestHead(let head)? = part else {
        Issue.record("\(String(describing: part))")
        return
      }
      #expect(status == nil)
      #expect(head.headers["host"] == "xy")
    } catch {
      #expect(error.status == status)
    }
  }
}
