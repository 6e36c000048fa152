import Testing

@testable import SNMWire

/// What a client reading `text` (in `pieces` pieces, each an array the decoder may keep:
/// `taking`) gets: each answer's status and body, then how the stream ended, or the refusal.
/// `skipping`: the bytes the decoder says are body (`bodyAhead`) are taken past it, as a reader
/// that reads them straight into the body does, and the decoder told (`skipBody`).
func answers(
  _ text: String, limits: HTTPLimits = .responses, toHEAD: Bool = false, pieces: Int = 1,
  taking: Bool = false, skipping: Bool = false
) -> [String] {
  var decoder = HTTPDecoder(reading: .responses, limits: limits)
  decoder.answersHEAD = toHEAD
  let bytes = Array(text.utf8)
  let size = max(1, bytes.count / pieces)
  var seen: [String] = []
  var status = 0
  var body: [UInt8] = []
  var offset = 0
  do {
    while offset < bytes.count {
      if skipping, let ahead = decoder.bodyAhead {
        let take = min(ahead, size, bytes.count - offset)
        body += bytes[offset..<offset + take]
        decoder.skipBody(take)
        offset += take
      } else if taking {
        let piece = bytes[offset..<min(bytes.count, offset + size)]
        decoder.append(taking: Array(piece))
        offset += piece.count
      } else {
        let piece = bytes[offset..<min(bytes.count, offset + size)]
        decoder.append(contentsOf: piece)
        offset += piece.count
      }
      while let part = try decoder.next() {
        switch part {
        case .responseHead(let head):
          status = head.status
          body = []
        case .body(let bytes): body += bytes
        case .end:
          seen.append("\(status) \(String(decoding: body, as: UTF8.self))")
          decoder.answersHEAD = toHEAD
        case .requestHead: seen.append("request?")
        }
      }
    }
  } catch {
    return seen + ["refused \(error.status): \(error.message)"]
  }
  switch decoder.finish() {
  case .complete: seen.append("\(status) \(String(decoding: body, as: UTF8.self)) (at the end)")
  case .idle: break
  case .inHead(let receivedAny): seen.append("cut off in the head, received \(receivedAny)")
  case .inBody(let remaining): seen.append("cut off in the body, \(remaining ?? -1) left")
  }
  return seen
}

struct AnswerCase: Sendable, CustomStringConvertible {
  var name: String
  var text: String
  var toHEAD = false
  var expected: [String]
  var description: String { name }
}

@Test(arguments: [
  AnswerCase(
    name: "length", text: "HTTP/1.1 200 OK\r\nContent-Length: 7\r\n\r\n[1,2,3]",
    expected: ["200 [1,2,3]"]),
  AnswerCase(
    name: "chunked with extensions and trailers",
    text: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
      + "5\r\n[{\"id\r\n7;ext=1\r\n\":1},{}\r\n1\r\n]\r\n0\r\nX-Trailer: t\r\n\r\n",
    expected: [#"200 [{"id":1},{}]"#]),
  AnswerCase(
    name: "a trailer line of 4,093 bytes and 1,000 trailer fields",
    text: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n[]\r\n0\r\nX-T: "
      + String(repeating: "v", count: 4_088) + "\r\n"
      + (1..<1_000).map { "X-\($0): v\r\n" }.joined() + "\r\n",
    expected: ["200 []"]),
  AnswerCase(
    name: "until the end of the stream", text: "HTTP/1.0 200 OK\r\n\r\n[1,2]",
    expected: ["200 [1,2] (at the end)"]),
  AnswerCase(
    name: "interim answers are skipped",
    text: "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\r\nContent-Length: 2\r\n\r\n{}",
    expected: ["201 {}"]),
  AnswerCase(
    name: "no body for 204 and 304 whatever the head says",
    text: "HTTP/1.1 204 No Content\r\nContent-Length: 5\r\n\r\n"
      + "HTTP/1.1 304 Not Modified\r\nTransfer-Encoding: chunked\r\n\r\n",
    expected: ["204 ", "304 "]),
  AnswerCase(
    name: "an answer to HEAD announces a length it does not send",
    text: "HTTP/1.1 200 OK\r\nContent-Length: 99999999999999\r\n\r\n", toHEAD: true,
    expected: ["200 "]),
  AnswerCase(
    name: "two equal lengths are one", text: "HTTP/1.1 200 OK\r\nContent-Length: 2, 2\r\n\r\nok",
    expected: ["200 ok"]),
  AnswerCase(
    name: "two equal length fields are one",
    text: "HTTP/1.1 200 OK\r\nContent-Length: 2\r\ncontent-length: 2\r\n\r\nok",
    expected: ["200 ok"]),
  AnswerCase(
    name: "a length with leading zeros", text: "HTTP/1.1 200 OK\r\nContent-Length: 003\r\n\r\nabc",
    expected: ["200 abc"]),
  AnswerCase(
    name: "no reason phrase", text: "HTTP/1.1 200\r\nContent-Length: 1\r\n\r\nx",
    expected: ["200 x"]),
  AnswerCase(
    name: "cut off in the body",
    text: "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n[1,",
    expected: ["cut off in the body, 7 left"]),
  AnswerCase(
    name: "a chunk size of 16 digits with leading zeros, spaces before its extension",
    text: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
      + "000000000000000a \t;x=1\r\n[{\"id\":1}]\r\n0 \r\n\r\n",
    expected: [#"200 [{"id":1}]"#]),
  AnswerCase(
    name: "cut off in a chunk",
    text: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n[1",
    expected: [
      "cut off in the body, -1 left"
    ]),
  AnswerCase(
    name: "cut off in the head", text: "HTTP/1.1 200 OK\r\n",
    expected: [
      "cut off in the head, received true"
    ]),
])
func readsAnswers(_ example: AnswerCase) {
  #expect(answers(example.text, toHEAD: example.toHEAD) == example.expected)
  #expect(
    answers(example.text, toHEAD: example.toHEAD, pieces: example.text.utf8.count)
      == example.expected, "byte by byte")
  // Pieces the decoder keeps as its buffer (all read) or copies (a line or a head cut in two).
  for pieces in [2, 3, 7, example.text.utf8.count] {
    #expect(
      answers(example.text, toHEAD: example.toHEAD, pieces: pieces, taking: true)
        == example.expected, "\(pieces) pieces taken")
    // The body's bytes read past the decoder, a piece at most at a time.
    #expect(
      answers(example.text, toHEAD: example.toHEAD, pieces: pieces, skipping: true)
        == example.expected, "\(pieces) pieces, the body's skipped")
  }
}

@Test(arguments: [
  // What a malicious server announces is refused before anything is set aside for it.
  AnswerCase(
    name: "chunk of 2^63 - 1 bytes",
    text: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n7fffffffffffffff\r\n[]",
    expected: ["refused 413: response body larger than 1073741824 bytes"]),
  // A size is 1-16 hex digits (curl and Go refuse more, whatever their value) that fit 63 bits:
  // the value of more was never read (40 digits were "too large"; 25 of them zeros, a 9-byte
  // chunk), nor can it wrap.
  AnswerCase(
    name: "chunk size of 40 digits",
    text: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
      + String(repeating: "f", count: 40) + "\r\n[]",
    expected: ["refused 400: invalid chunk size: more than 16 hex digits"]),
  AnswerCase(
    name: "chunk size of 25 digits, 24 of them leading zeros",
    text: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
      + String(repeating: "0", count: 24) + "9\r\n[1,2,3,4]\r\n0\r\n\r\n",
    expected: ["refused 400: invalid chunk size: more than 16 hex digits"]),
  AnswerCase(
    name: "chunk of 2^63 bytes",
    text: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n8000000000000000\r\n[]",
    expected: ["refused 400: invalid chunk size: more than 63 bits"]),
  AnswerCase(
    name: "chunk of 2^64 - 1 bytes",
    text: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nffffffffffffffff\r\n[]",
    expected: ["refused 400: invalid chunk size: more than 63 bits"]),
  AnswerCase(
    name: "a space between a size's digits",
    text: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n9 9\r\n[1,2,3,4]\r\n0\r\n\r\n",
    expected: ["refused 400: invalid chunk size"]),
  AnswerCase(
    name: "a space before a size",
    text: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n 9\r\n[1,2,3,4]\r\n0\r\n\r\n",
    expected: ["refused 400: invalid chunk size"]),
  AnswerCase(
    name: "no size before an extension",
    text: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n;x\r\n[]\r\n0\r\n\r\n",
    expected: ["refused 400: invalid chunk size"]),
  AnswerCase(
    name: "a letter after the digits of a size past the limit",
    text: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nffffffffffffffffffz\r\n[]",
    expected: ["refused 400: invalid chunk size"]),
  AnswerCase(
    name: "chunk of 4 TiB",
    text: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n40000000000\r\n[]",
    expected: ["refused 413: response body larger than 1073741824 bytes"]),
  AnswerCase(
    name: "chunks adding up past the limit",
    text: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n[]\r\n3fffffff\r\n",
    expected: ["refused 413: response body larger than 1073741824 bytes"]),
  AnswerCase(
    name: "signed chunk size",
    text: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n+9\r\n[]\r\n0\r\n\r\n",
    expected: ["refused 400: invalid chunk size"]),
  AnswerCase(
    name: "length past the limit",
    text: "HTTP/1.1 200 OK\r\nContent-Length: 99999999999\r\n\r\n[]",
    expected: ["refused 413: response body larger than 1073741824 bytes"]),
  AnswerCase(
    name: "length of 2^63 - 1 (19 digits)",
    text: "HTTP/1.1 200 OK\r\nContent-Length: 9223372036854775807\r\n\r\n[]",
    expected: ["refused 400: invalid Content-Length"]),
  AnswerCase(
    name: "two different lengths",
    text: "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 7\r\n\r\n[]12345",
    expected: ["refused 400: invalid Content-Length"]),
  AnswerCase(
    name: "length and chunked",
    text: "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n",
    expected: ["refused 400: both Transfer-Encoding and Content-Length are set"]),
  AnswerCase(
    name: "not HTTP", text: "SSH-2.0-OpenSSH_9.6\r\n",
    expected: ["refused 400: Received HTTP/0.9 when not allowed"]),
  AnswerCase(
    name: "bad status", text: "HTTP/1.1 2000 OK\r\n\r\n", expected: ["refused 400: bad status line"]
  ),
  AnswerCase(
    name: "two spaces before the status", text: "HTTP/1.1  200 OK\r\n\r\n",
    expected: ["refused 400: bad status line"]),
  AnswerCase(
    name: "a status below 100", text: "HTTP/1.1 099 Odd\r\n\r\n",
    expected: ["refused 400: bad status line"]),
  AnswerCase(
    name: "no status", text: "HTTP/1.1\r\n\r\n", expected: ["refused 400: bad status line"]),
  // A version that cannot be read is a bad status line (libcurl tells it from no status no
  // better); of two faults the one libcurl finds first is named, over both schemes.
  AnswerCase(
    name: "an unreadable version", text: "HTTP/1.10 200 OK\r\n\r\n",
    expected: ["refused 400: bad status line"]),
  AnswerCase(
    name: "HTTP/3 and a status below 100", text: "HTTP/3 099\r\n\r\n",
    expected: ["refused 505: only HTTP/1.0 and HTTP/1.1 are supported"]),
  AnswerCase(
    name: "HTTP/1.5 and two spaces", text: "HTTP/1.5  200 OK\r\n\r\n",
    expected: ["refused 505: only HTTP/1.0 and HTTP/1.1 are supported"]),
  AnswerCase(
    name: "HTTP/1.5 and a status below 100", text: "HTTP/1.5 099 X\r\n\r\n",
    expected: ["refused 400: bad status line"]),
  AnswerCase(
    name: "a length with a sign",
    text: "HTTP/1.1 200 OK\r\nContent-Length: +2\r\n\r\nok",
    expected: ["refused 400: invalid Content-Length"]),
  // A bare CR in a trailer's field line is invalid, as in a head's (RFC 9112 §2.2; libcurl
  // refuses it too), and so are the other control characters a field value may not hold.
  AnswerCase(
    name: "a bare CR in a trailer field",
    text: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n[]\r\n0\r\nX-T: a\rb\r\n\r\n",
    expected: ["refused 400: invalid character in trailer field value"]),
  AnswerCase(
    name: "a bare CR ending a trailer line",
    text: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n[]\r\n0\r\nX-T: t\r\r\n\r\n",
    expected: ["refused 400: invalid character in trailer field value"]),
  AnswerCase(
    name: "a NUL in a trailer field",
    text: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n[]\r\n0\r\nX-T: a\u{0}b\r\n"
      + "\r\n",
    expected: ["refused 400: invalid character in trailer field value"]),
  AnswerCase(
    name: "a trailer line without a colon",
    text: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n[]\r\n0\r\nno colon\r\n\r\n",
    expected: ["refused 400: trailer field without ':'"]),
  // A trailer line is judged as a head's field line is (an empty name, a space in it, a line
  // starting with a space); over https:// libcurl took these as snm's reader did.
  AnswerCase(
    name: "an empty trailer field name",
    text: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n[]\r\n0\r\n: x\r\n\r\n",
    expected: ["refused 400: invalid trailer field name"]),
  AnswerCase(
    name: "a space in a trailer field name",
    text: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n[]\r\n0\r\nX T: x\r\n\r\n",
    expected: ["refused 400: invalid trailer field name"]),
  AnswerCase(
    name: "a trailer line starting with a space",
    text: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n[]\r\n0\r\n X-T: x\r\n\r\n",
    expected: ["refused 400: obsolete line folding in trailer fields is not supported"]),
  // A trailer line longer than libcurl holds (4,093 bytes without its line end) is refused over
  // http:// as libcurl refuses it over https://; more fields than a head's limit too.
  AnswerCase(
    name: "a trailer line past 4,093 bytes",
    text: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n[]\r\n0\r\nX-T: "
      + String(repeating: "v", count: 4_089) + "\r\n\r\n",
    expected: ["refused 431: trailer field line too long"]),
  AnswerCase(
    name: "1,001 trailer fields",
    text: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n[]\r\n0\r\n"
      + (0...1_000).map { "X-\($0): v\r\n" }.joined() + "\r\n",
    expected: ["refused 431: too many trailer fields"]),

  // snm asks no upgrade here: a 101 is refused, not skipped as interim (libcurl took it final).
  AnswerCase(
    name: "an unasked 101",
    text: "HTTP/1.1 101 Switching Protocols\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}",
    expected: ["refused 400: 101 Switching Protocols to a request that asked no upgrade"]),
  AnswerCase(
    name: "head past the limit",
    text: "HTTP/1.1 200 OK\r\nX: " + String(repeating: "a", count: 80_000) + "\r\n\r\n",
    expected: ["refused 431: header fields too large"]),
])
func refusesAnswers(_ example: AnswerCase) {
  #expect(answers(example.text) == example.expected)
  #expect(answers(example.text, pieces: 7) == example.expected, "in pieces")
  #expect(
    answers(example.text, pieces: 7, skipping: true) == example.expected, "the body's skipped")
}

@Test func aBodyFramedByTheEndOfTheStreamIsCapped() {
  var limits = HTTPLimits.responses
  limits.maxBodyBytes = 4
  #expect(
    answers("HTTP/1.1 200 OK\r\n\r\n12345", limits: limits)
      == ["refused 413: response body larger than 4 bytes"])
  // Read past the decoder, the body stops at its limit all the same: the byte after it is refused.
  for pieces in [1, 3, 24] {
    #expect(
      answers("HTTP/1.1 200 OK\r\n\r\n12345", limits: limits, pieces: pieces, skipping: true)
        == ["refused 413: response body larger than 4 bytes"], "\(pieces) pieces")
    #expect(
      answers("HTTP/1.1 200 OK\r\n\r\n1234", limits: limits, pieces: pieces, skipping: true)
        == ["200 1234 (at the end)"], "\(pieces) pieces")
  }
}

@Test func nothingReceivedIsTellable() {
  var decoder = HTTPDecoder(reading: .responses, limits: .responses)
  #expect(decoder.finish() == .idle)
  decoder.append(contentsOf: Array("HTTP/1.1 204 No Content\r\n\r\n".utf8))
  #expect(throws: Never.self) { _ = try decoder.next() }
  #expect(throws: Never.self) { _ = try decoder.next() }
  #expect(decoder.finish() == .idle, "between answers")
}

@Test func theEncoderNeverLetsAValueSplitTheHead() {
  let head = HTTPRequestHead(
    method: "GET", target: "/t", headers: ["apikey": "k\r\nX-Injected: 1", "Accept": "a\nb"])
  #expect(
    String(decoding: HTTPEncoder.head(of: head), as: UTF8.self)
      == "GET /t HTTP/1.1\r\napikey: k X-Injected: 1\r\nAccept: a b\r\n\r\n")
  #expect(
    String(decoding: HTTPEncoder.head(of: HTTPResponseHead(status: 404)), as: UTF8.self)
      == "HTTP/1.1 404 Not Found\r\n\r\n")
}

@Test(arguments: [
  ("plain", "plain"), ("a\r\nb", "a b"), ("a\n\rb", "a  b"), ("\r", " "), ("a\rb\n", "a b "),
  ("두부\r\n🐕", "두부 🐕"), ("", ""),
])
func aFieldValueLosesItsLineBreaks(_ value: String, _ sent: String) {
  #expect(HTTPEncoder.sanitized(value) == sent)
  var bytes: [UInt8] = []
  HTTPEncoder.appendField(name: "X\r\nY", value: value, to: &bytes)
  #expect(String(decoding: bytes, as: UTF8.self) == "X Y: \(sent)\r\n")
}

@Test func headerNamesCompareWithoutCase() {
  var headers: HTTPHeaders = ["Content-Type": "a", "Vary": "x", "vary": "y"]
  #expect(headers["content-TYPE"] == "a")
  #expect(headers.values(for: "VARY") == ["x", "y"])
  headers["VARY"] = "z"
  #expect(headers.fields.map(\.name) == ["Content-Type", "Vary"])
  #expect(headers["vary"] == "z")
  #expect(!HTTPHeaders.sameName("Stra\u{DF}e", "STRASSE"))
}

@Test func transferCodingsAreEveryFieldsCodingsInOrder() {
  let headers = HTTPHeaders([
    .init(name: "Transfer-Encoding", value: " GZip ,\tdeflate"), .init(name: "X", value: "chunked"),
    .init(name: "transfer-encoding", value: ",, Chunked\t "),
  ])
  #expect(headers.transferCodings == ["gzip", "deflate", "chunked"])
  #expect(HTTPHeaders([.init(name: "Transfer-Encoding", value: " ")]).transferCodings == [""])
  #expect(HTTPHeaders([.init(name: "Transfer-Encoding", value: "")]).transferCodings == [])
  #expect(HTTPHeaders().transferCodings == [])
}

@Test func percentDecodingKeepsMalformedEscapes() {
  #expect(PercentEncoding.decode("a%20b+c%ZZ%4", plusIsSpace: true) == "a b c%ZZ%4")
  #expect(PercentEncoding.decode("a+b") == "a+b")
  #expect(PercentEncoding.decode(bytes: Array("%00%ff".utf8), plusIsSpace: false) == [0, 0xFF])
}

/// A field value is checked eight bytes at a time: a tab, any other control character and DEL
/// are told apart at every offset of a word, in values of every length up to 40, and a head is
/// split into its lines the same whether it came at once or a byte at a time.
@Test func fieldValuesAreCheckedAtEveryOffsetOfAWord() {
  let cases: [(UInt8, Bool)] = [
    (0x09, true), (0x01, false), (0x1F, false), (0x7F, false), (0x20, true), (0xC3, true),
    (0x80, true), (0x7E, true),
  ]
  for length in 0...40 {
    for offset in 0...length {
      for (byte, allowed) in cases {
        var value = [UInt8](repeating: UInt8(ascii: "a"), count: length)
        value.insert(byte, at: offset)
        #expect(HTTPDecoder.isFieldValue(value[...]) == allowed, "\(length) \(offset) \(byte)")
        #expect(HTTPDecoder.isFieldValue(value[1...]) == (allowed || offset == 0))
      }
    }
  }
  let long = String(repeating: "v", count: 300)
  let head = "\r\n\r\nGET /a HTTP/1.1\r\nHost: x\r\nX-Long: \(long)\n\r\n"
  for size in [1, 7, head.utf8.count] {
    var decoder = HTTPDecoder(reading: .requests, limits: .requests)
    var got: HTTPRequestHead?
    let bytes = Array(head.utf8)
    var offset = 0
    while offset < bytes.count, got == nil {
      decoder.append(contentsOf: bytes[offset..<min(bytes.count, offset + size)])
      offset += size
      if case .requestHead(let request)? = try? decoder.next() { got = request }
    }
    #expect(got?.target == "/a")
    #expect(got?.headers["x-long"]?.count == 300)
    #expect(got?.headers["host"] == "x")
  }
}

/// A request's trailer is read as an answer's: a bare CR in its field line, or a line without a
/// colon, is refused (the gateway answers 400), a tab is kept.
@Test(arguments: [
  ("X-T: a\rb", "invalid character in trailer field value"),
  ("no colon", "trailer field without ':'"), (": x", "invalid trailer field name"),
  ("X T: x", "invalid trailer field name"), ("X-T: a\tb", nil),
])
func aRequestsTrailerFieldIsChecked(trailer: String, refusal: String?) {
  let text =
    "POST /a HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\(trailer)\r\n\r\n"
  var decoder = HTTPDecoder(reading: .requests, limits: .requests)
  decoder.append(contentsOf: Array(text.utf8))
  var parts: [String] = []
  do {
    while let part = try decoder.next() {
      if case .end = part { parts.append("end") }
    }
  } catch {
    parts.append("refused \(error.status): \(error.message)")
  }
  #expect(parts == [refusal.map { "refused 400: \($0)" } ?? "end"])
}

@Test(arguments: [
  ("HTTP/1.1 200 OK\r\n\r\n", 200, "OK", 1),
  ("HTTP/1.0 404 Not Found Here\r\n\r\n", 404, "Not Found Here", 0),
  ("HTTP/1.1 201\r\n\r\n", 201, "", 1),
  ("HTTP/1.1 201 \r\n\r\n", 201, "", 1),
])
func theStatusLineIsCutAtItsFirstTwoSpaces(text: String, status: Int, reason: String, minor: Int)
  throws
{
  var decoder = HTTPDecoder(reading: .responses, limits: .responses)
  decoder.append(contentsOf: Array(text.utf8))
  guard case .responseHead(let head)? = try decoder.next() else {
    Issue.record("no head")
    return
  }
  #expect(head.status == status)
  #expect(head.reason == reason)
  #expect(head.minorVersion == minor)
}

/// The version of a status line libcurl hands over (https://) gets the decoder's verdict: its
/// refusal in its words, or the answer read on.
@Test(arguments: [
  "HTTP/1.1 200 OK", "HTTP/1.0 204", "HTTP/1.5 200 Later", "HTTP/2.0 200 OK", "HTTP/2 200",
  "HTTP/3 200", "HTTP/1.10 200", "HTTP/1.x 200", "HTTP/1.1x 200", "HTTP/1.1 500 a b",
])
func aStatusLinesVersionReadsAsTheDecoderReadsIt(line: String) {
  let verdict: String
  do {
    let minor = try Array(line.utf8).withUnsafeBufferPointer { (bytes) throws(HTTPParseError) in
      try HTTPDecoder.minorVersion(ofStatusLine: bytes)
    }
    verdict = "HTTP/1.\(minor)"
  } catch {
    verdict = "refused \(error.status): \(error.message)"
  }
  let decoded = answers(line + "\r\nContent-Length: 0\r\n\r\n")
  if decoded.first?.hasPrefix("refused") == true {
    #expect(decoded == [verdict])
  } else {
    #expect(verdict.hasPrefix("HTTP/1."), "\(decoded)")
  }
}

/// An `HTTP/1.x` past 1.1: a request is read as 1.1 (RFC 9110 §2.5, as a server should), an
/// answer refused (libcurl refuses it over https://, and both schemes give one verdict), as an
/// answer's `HTTP/2` and `HTTP/3` are.
@Test func aMinorVersionPastOneIsReadInARequestAndRefusedInAnAnswer() throws {
  var decoder = HTTPDecoder(reading: .requests, limits: .requests)
  decoder.append(contentsOf: Array("GET /a HTTP/1.5\r\nHost: x\r\n\r\n".utf8))
  guard case .requestHead(let request)? = try decoder.next() else {
    Issue.record("no request head")
    return
  }
  #expect(request.minorVersion == 5)
  for line in ["HTTP/1.5 200 OK", "HTTP/1.9 200 OK", "HTTP/2 200", "HTTP/3 200", "HTTP/3.0 200"] {
    #expect(
      answers(line + "\r\nContent-Length: 0\r\n\r\n")
        == ["refused 505: only HTTP/1.0 and HTTP/1.1 are supported"], "\(line)")
  }
  #expect(answers("HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nok") == ["200 ok"])
}
