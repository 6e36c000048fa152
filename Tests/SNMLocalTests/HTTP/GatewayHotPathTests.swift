import SNMWire
import Testing

@testable import SNMGateway
@testable import SNMLocal
@testable import SNMLocalREST

/// The gateway's hot path writes its bytes with its own measured writers and byte comparisons:
/// each must give exactly what the general code it stands in for gives, odd input included
/// (mixed case, repeated names, control characters, quotes, non-ASCII bytes, word boundaries).
@Suite struct GatewayHotPathTests {
  /// What `HTTPResponseWriter.serialize` wrote before it measured its buffer: `HTTPEncoder`'s
  /// status line and fields, appended to an array.
  static func encoderSerialized(
    _ response: HTTPResponse, keepAlive: Bool, bodyless: Bool, date: String
  ) -> [UInt8] {
    let streamed = response.bodyStream != nil
    let sendsBody = !bodyless && response.status != 204 && response.status != 304
    var bytes: [UInt8] = []
    HTTPEncoder.appendStatusLine(
      of: HTTPResponseHead(status: response.status, reason: response.reason), to: &bytes)
    for field in response.headers {
      if HTTPHeaders.sameName(field.name, "Content-Length")
        || HTTPHeaders.sameName(field.name, "Connection")
        || HTTPHeaders.sameName(field.name, "Transfer-Encoding")
      {
        continue
      }
      HTTPEncoder.appendField(name: field.name, value: field.value, to: &bytes)
    }
    if streamed {
      if !bodyless {
        HTTPEncoder.appendField(name: "Transfer-Encoding", value: "chunked", to: &bytes)
      }
    } else if response.status != 204 && response.status >= 200 {
      let length = response.bodyFile.map { String($0.length) } ?? String(response.body.count)
      HTTPEncoder.appendField(name: "Content-Length", value: length, to: &bytes)
    }
    HTTPEncoder.appendField(name: "Date", value: date, to: &bytes)
    if !keepAlive { HTTPEncoder.appendField(name: "Connection", value: "close", to: &bytes) }
    HTTPEncoder.appendEnd(to: &bytes)
    if sendsBody {
      if streamed {
        if !response.body.isEmpty {
          response.body.withUnsafeBytes {
            bytes.append(contentsOf: HTTPResponseWriter.chunk($0))
          }
        }
      } else {
        bytes.append(contentsOf: response.body)
      }
    }
    return bytes
  }

  /// `bytes` with its `Date` field's value replaced by `date` (the two writers may straddle a
  /// second).
  static func dated(_ bytes: [UInt8], _ date: String) -> [UInt8] {
    let text = String(decoding: bytes, as: UTF8.self)
    guard let start = text.range(of: "\r\nDate: "),
      let end = text[start.upperBound...].range(
        of: "\r\n")
    else { return bytes }
    return Array((text[..<start.upperBound] + date + text[end.lowerBound...]).utf8)
  }

  static var responses: [HTTPResponse] {
    var all: [HTTPResponse] = []
    var headers = HTTPHeaders()
    headers.append(name: "Content-Type", value: "application/json; charset=utf-8")
    headers.append(name: "CONTENT-length", value: "999")
    headers.append(name: "Transfer-encoding", value: "gzip")
    headers.append(name: "connection", value: "keep-alive")
    headers.append(name: "Content-Lengths", value: "kept: not a framing field")
    headers.append(name: "Connectio", value: "kept too")
    headers.append(name: "X-Split", value: "a\rb\nc\r\nd\n\re\r")
    headers.append(name: "X-Name\r\nInjected", value: "")
    headers.append(name: "X-Korean", value: "두부 🐕")
    headers.append(name: "X-Empty", value: "")
    for status in [100, 101, 199, 200, 201, 204, 206, 304, 404, 416, 599, 999, 1_000] {
      all.append(HTTPResponse(status: status, headers: headers, body: Array("[1,2]".utf8)))
    }
    var reasoned = HTTPResponse(status: 418, headers: headers, body: [])
    reasoned.reason = "Short\r\nand stout"
    all.append(reasoned)
    all.append(HTTPResponse(status: 200))
    for size in [0, 1, 15, 16, 255, 4_096, 70_000] {
      var streamed = HTTPResponse(
        status: 200, headers: headers, body: [UInt8](repeating: 0x61, count: size))
      streamed.bodyStream = HTTPStreamedBody(produce: { _ in true }, abandon: {})
      all.append(streamed)
    }
    var file = HTTPResponse(status: 206, headers: headers)
    file.bodyFile = HTTPFileBody(fd: nil, offset: 0, length: 9_876_543_210)
    all.append(file)
    return all
  }

  @Test func theMeasuredWriterWritesWhatTheEncoderWrote() {
    for response in Self.responses {
      for keepAlive in [true, false] {
        for bodyless in [true, false] {
          let written = HTTPResponseWriter.serialize(
            response, keepAlive: keepAlive, bodyless: bodyless)
          let expected = Self.encoderSerialized(
            response, keepAlive: keepAlive, bodyless: bodyless, date: "D")
          #expect(
            Self.dated(written, "D") == expected,
            "status \(response.status), keepAlive \(keepAlive), bodyless \(bodyless)")
        }
      }
    }
  }

  @Test func framingNamesAreKnownInAnyCaseAndNothingElseIs() {
    for name in [
      "Content-Length", "content-length", "CONTENT-LENGTH", "Connection", "cOnNeCtIoN",
      "Transfer-Encoding", "TRANSFER-encoding",
    ] {
      #expect(HTTPResponseWriter.isFramingName(name), "\(name)")
    }
    for name in [
      "Content-Lengt", "Content_Length", "Connection ", "Transfer-Encodings", "",
      "Content-Type", "Connectioñ", "Content\u{2010}Length",
    ] {
      #expect(!HTTPResponseWriter.isFramingName(name), "\(name)")
    }
  }

  @Test func aFieldIsFoundAsTheSubscriptFindsIt() {
    let headers: HTTPHeaders = [
      "APIKEY": "first", "apikey": "second", "Authorizatioñ": "no", "authorization": "yes",
      "Origin ": "spaced", "ORIGIN": "upper", "Range": "",
    ]
    #expect(headers.first(lowercased: "apikey") == headers["apikey"])
    #expect(headers.first(lowercased: "apikey") == "first")
    #expect(headers.first(lowercased: "authorization") == headers["Authorization"])
    #expect(headers.first(lowercased: "authorization") == "yes")
    #expect(headers.first(lowercased: "origin") == "upper")
    #expect(headers.first(lowercased: "range") == "")
    #expect(headers.first(lowercased: "prefer") == nil)
    #expect(HTTPHeaders().first(lowercased: "apikey") == nil)
  }

  /// `request.headers` written straight into its string is what the escaping writer gives, for
  /// every head it takes; any other head is left to the escaping writer.
  @Test func plainHeadsAreWrittenAsTheEscapingWriterWritesThem() {
    let plain: [HTTPHeaders] = [
      [:],
      ["Host": "127.0.0.1:54321", "Accept-Encoding": "identity", "apikey": "eyJ.a-b_c.d"],
      ["X-Mixed-CASE": "v", "x-mixed-case": "last wins", "Cookie": "a=1; b = 2", "Z": ""],
      ["COOKIE": "c=3", "Prefer": "return=representation", "prefer": "count=exact", "A": " ~ "],
      ["Authorization": "Bearer " + String(repeating: "x", count: 300) + "!#$%&'()*+,-./:;<=>?@"],
    ]
    for headers in plain {
      let written = RequestSettings.plainHeaders(headers)
      #expect(written != nil)
      #expect(written?.headers == RequestSettings.escapedHeaders(headers).headers)
      #expect(written?.cookies == RequestSettings.escapedHeaders(headers).cookies)
      #expect(RequestSettings.headers(headers) == RequestSettings.escapedHeaders(headers))
    }
    let odd: [HTTPHeaders] = [
      ["X": "a\"b"], ["X": "a\\b"], ["X": "tab\there"], ["X": "del\u{7f}"], ["X": "c1 \u{85}"],
      ["X": "두부"], ["X-두부": "v"], ["X\"Q": "1"], ["A": "1", "X": "\u{ff}"],
    ]
    for headers in odd {
      #expect(RequestSettings.plainHeaders(headers) == nil, "\(headers)")
      #expect(RequestSettings.headers(headers) == RequestSettings.escapedHeaders(headers))
    }
    // Only what is written must be plain: a cookie's value, or a value a later field replaces.
    for headers: HTTPHeaders in [["Cookie": "k=\"v\""], ["X": "a\"b", "x": "plain"]] {
      #expect(RequestSettings.plainHeaders(headers) != nil)
      #expect(RequestSettings.headers(headers) == RequestSettings.escapedHeaders(headers))
    }
    #expect(RequestSettings.headers(["X": "a\"b", "Y": "1"]).headers == #"{"x":"a\"b","y":"1"}"#)
    #expect(RequestSettings.headers(["X-두부": "v"]).headers == #"{"x-두부":"v"}"#)
  }

  /// The eight-bytes-at-a-time test of a value finds an odd byte wherever it is.
  @Test func aValuesOddByteIsFoundAtAnyPlace() {
    for length in 0...24 {
      #expect(RequestSettings.isPlainValue(String(repeating: "a", count: length)))
      for place in 0..<length {
        for odd: UInt8 in [0x00, 0x09, 0x1F, 0x22, 0x5C, 0x7F, 0x80, 0xFF] {
          var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: length)
          bytes[place] = odd
          let text = String(decoding: bytes, as: UTF8.self)
          #expect(!RequestSettings.isPlainValue(text), "\(odd) at \(place) of \(length)")
        }
        var edges = [UInt8](repeating: 0x20, count: length)
        edges[place] = 0x7E
        #expect(RequestSettings.isPlainValue(String(decoding: edges, as: UTF8.self)))
      }
    }
  }

  /// A string's escapes are found wherever they are in its words, as byte by byte.
  @Test func stringEscapesAreFoundAtAnyPlace() {
    func escaped(_ bytes: [UInt8]) -> [UInt8] {
      var sink = ByteSink(capacity: 16)
      bytes.withUnsafeBytes { RowJSONEncoder.appendString($0, to: &sink) }
      return sink.array()
    }
    func reference(_ bytes: [UInt8]) -> [UInt8] {
      var out: [UInt8] = [0x22]
      for byte in bytes {
        switch byte {
        case 0x22: out += Array(#"\""#.utf8)
        case 0x5C: out += Array(#"\\"#.utf8)
        case 0x08: out += Array(#"\b"#.utf8)
        case 0x0C: out += Array(#"\f"#.utf8)
        case 0x0A: out += Array(#"\n"#.utf8)
        case 0x0D: out += Array(#"\r"#.utf8)
        case 0x09: out += Array(#"\t"#.utf8)
        case 0..<0x20:
          out +=
            Array("\\u00".utf8) + [RowJSONEncoder.hex[Int(byte >> 4)]]
            + [RowJSONEncoder.hex[Int(byte & 0xF)]]
        default: out.append(byte)
        }
      }
      return out + [0x22]
    }
    for length in 0...24 {
      let base = (0..<length).map { UInt8(ascii: "a") + UInt8($0 % 26) }
      #expect(escaped(base) == reference(base))
      for place in 0..<length {
        for odd: UInt8 in [0x00, 0x01, 0x0A, 0x1F, 0x22, 0x5C, 0x7F, 0x80, 0xC2, 0xFF] {
          var bytes = base
          bytes[place] = odd
          #expect(escaped(bytes) == reference(bytes), "\(odd) at \(place) of \(length)")
          var two = bytes
          two[length - 1 - place] = 0x22
          #expect(escaped(two) == reference(two))
        }
      }
    }
    #expect(escaped(Array("두부 🐕 \"x\"".utf8)) == reference(Array("두부 🐕 \"x\"".utf8)))
  }

  @Test func contentRangeNumbersAreWrittenAsStringWritesThem() {
    for (offset, page, total) in [
      (0, 1, nil), (9, 12, 123_456_789_012), (0, 0, Int?(0)), (1_000_000, 1_000, Int.max),
      (10, 0, 10), (0, 10, 5),
    ] as [(Int, Int, Int?)] {
      let upper = offset + page - 1
      var expected = total != 0 && offset <= upper ? String(offset) + "-" + String(upper) : "*"
      expected += "/" + (total.map(String.init) ?? "*")
      #expect(RangeRules.contentRange(offset: offset, pageTotal: page, total: total) == expected)
    }
  }

  @Test(arguments: [
    ("/rest/v1", "/rest/v1", true), ("/rest/v1/", "/rest/v1", true),
    ("/rest/v1/dogs", "/rest/v1", true), ("/rest/v10", "/rest/v1", false),
    ("/rest/v", "/rest/v1", false), ("/REST/v1/x", "/rest/v1", false), ("", "/rest/v1", false),
    ("/rest/v1/\u{301}x", "/rest/v1", false), ("/rest/v1/두부", "/rest/v1", true),
    ("/rest/v1\u{301}/x", "/rest/v1", false), ("/auth/v1/token", "/auth/v1", true),
  ])
  func pathsMatchTheirServicesPrefix(_ path: String, _ prefix: String, _ matches: Bool) {
    #expect(Router.matches(path, prefix: prefix) == matches)
    #expect(matches == (path == prefix || path.hasPrefix(prefix + "/")))
  }

  @Test(arguments: [
    ("GET /a HTTP/1.1\r\nHost: x\r\n\r\n", true),
    ("GET /a HTTP/1.0\r\nHost: x\r\n\r\n", false),
    ("GET /a HTTP/1.0\r\nCONNECTION: Keep-Alive\r\n\r\n", true),
    ("GET /a HTTP/1.1\r\nconnection: close\r\n\r\n", false),
    ("GET /a HTTP/1.1\r\nConnection: te, CLOSE\r\n\r\n", false),
    ("GET /a HTTP/1.1\r\nConnection: upgrade\r\n\r\n", true),
    ("GET /a HTTP/1.1\r\nConnectio: close\r\n\r\n", true),
  ])
  func aConnectionIsKeptAsItsHeadSays(_ text: String, _ kept: Bool) {
    let steps = read(text)
    guard steps.count == 1, case .request(let request, let keepAlive) = steps[0] else {
      Issue.record("expected one request, got \(steps)")
      return
    }
    #expect(request.path == "/a")
    #expect(keepAlive == kept)
  }

  @Test(arguments: [
    ("/a?b=1?c", "/a", "b=1?c"), ("/a?", "/a", ""), ("/a", "/a", ""), ("/?x", "/", "x"),
    ("/d%C3%BC?q=%20", "/d%C3%BC", "q=%20"), ("*", "*", ""), ("/두부?부=1", "/두부", "부=1"),
  ])
  func aTargetIsCutAtItsFirstQuestionMark(_ target: String, _ path: String, _ query: String) {
    let request = HTTPRequest(method: "GET", target: target)
    #expect(request.path == path && request.query == query)
  }

  /// `request.path` is cut from the path's bytes as `hasPrefix` cuts it from its characters:
  /// a mark combining with the byte after `/rest/v1` makes that no prefix.
  @Test(arguments: [
    ("/rest/v1", "/"), ("/rest/v1/", "/"), ("/rest/v1/todos", "/todos"), ("/rest/v1x", "x"),
    ("/rest/v10/a", "0/a"), ("/rest/v", "/rest/v"), ("/REST/v1/a", "/REST/v1/a"), ("", ""),
    ("/auth/v1/token", "/auth/v1/token"), ("/rest/v1/두부", "/두부"),
    ("/rest/v1\u{301}/x", "/rest/v1\u{301}/x"), ("/rest/v1/\u{301}x", "/\u{301}x"),
    ("/rest/v1두부", "두부"), ("/rest/v1?a", "?a"),
  ])
  func aRequestsPathIsCutAsItsCharactersAre(_ path: String, _ cut: String) {
    #expect(RequestSettings.path(path) == cut)
    #expect(RequestSettings.pathByCharacters(path) == cut)
  }

  /// The eight-bytes-at-a-time search for CR and LF finds them wherever they are, and nothing
  /// else (bytes next to them, and with their low bits).
  @Test func aLineEndIsFoundAtAnyPlace() {
    func found(_ bytes: [UInt8]) -> Bool {
      bytes.withUnsafeBufferPointer { HTTPHeadBytes.hasLineEnd($0) }
    }
    for length in 0...24 {
      #expect(!found([UInt8](repeating: 0x61, count: length)))
      for place in 0..<length {
        for odd: UInt8 in [0x0D, 0x0A] {
          var bytes = [UInt8](repeating: 0x61, count: length)
          bytes[place] = odd
          #expect(found(bytes), "\(odd) at \(place) of \(length)")
        }
        for near: UInt8 in [0x09, 0x0B, 0x0C, 0x0E, 0x1D, 0x8A, 0x8D, 0xFF, 0x00] {
          var bytes = [UInt8](repeating: 0x61, count: length)
          bytes[place] = near
          #expect(!found(bytes), "\(near) at \(place) of \(length)")
        }
      }
    }
  }

  /// Two keys compared in place, eight bytes at a time, are equal exactly when their bytes are:
  /// a difference at any place, in any length, small strings and large, is seen.
  @Test func keysAreEqualExactlyWhenTheirBytesAre() {
    for length in [0, 1, 7, 8, 9, 15, 16, 17, 31, 200, 203] {
      let key = String((0..<length).map { Character(UnicodeScalar(UInt8(0x41 + $0 % 26))) })
      #expect(Crypto.constantTimeEqual(key, String(decoding: Array(key.utf8), as: UTF8.self)))
      #expect(!Crypto.constantTimeEqual(key, key + "a"))
      #expect(!Crypto.constantTimeEqual(key + "a", key))
      for place in 0..<length {
        var bytes = Array(key.utf8)
        bytes[place] ^= 0x20
        let other = String(decoding: bytes, as: UTF8.self)
        #expect(!Crypto.constantTimeEqual(key, other), "a difference at \(place) of \(length)")
        #expect(!Crypto.constantTimeEqual(other, key))
      }
    }
    #expect(Crypto.constantTimeEqual("두부 🐕", "두부 🐕"))
    #expect(!Crypto.constantTimeEqual("두부 🐕", "두부 🐈"))
  }

  /// The default schema's `search_path` is written once, and again when the schemas or the
  /// extra search path change; another schema's is written as before.
  @Test func theDefaultSchemasSearchPathIsTheOneWrittenForIt() {
    func written(_ schema: String, _ extra: [String]) -> String {
      SQLText.identifier(schema) + extra.map { ", " + SQLText.identifier($0) }.joined()
    }
    var cache = SchemaCache(schemas: ["public", "api"], tables: [])
    #expect(cache.searchPath("public") == written("public", ["public", "extensions"]))
    #expect(cache.searchPath("api") == written("api", ["public", "extensions"]))
    cache.extraSearchPath = ["x\"y"]
    #expect(cache.searchPath("public") == written("public", ["x\"y"]))
    #expect(cache.searchPath("api") == written("api", ["x\"y"]))
    cache.schemas = ["api"]
    #expect(cache.searchPath("api") == written("api", ["x\"y"]))
    #expect(cache.searchPath("public") == written("public", ["x\"y"]))
    cache.schemas = []
    #expect(cache.searchPath("api") == written("api", ["x\"y"]))
  }
}
