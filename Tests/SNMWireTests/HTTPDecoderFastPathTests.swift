import Testing

@testable import SNMWire

/// The request decoder's one-pass readings stand in for general code: each must give exactly
/// what that code gives, odd input included (names that stop at a byte no token has, colons in
/// odd places, folding, spaces and tabs around values, control bytes, DEL, UTF-8, framing
/// fields in any case, repeated, listed or malformed, versions read from inside a larger buffer).
@Suite struct HTTPDecoderFastPathTests {
  /// What `addField` or `addFieldInParts` made of `line`: the field, or the error.
  static func added(
    _ line: ArraySlice<UInt8>,
    _ add: (ArraySlice<UInt8>, inout HTTPHeaders) throws(HTTPParseError) -> Void
  ) -> String {
    var headers = HTTPHeaders()
    do throws(HTTPParseError) {
      try add(line, &headers)
    } catch {
      return "error \(error.status) \(error.message)"
    }
    return headers.fields.map { "\($0.name)|\($0.value)" }.joined(separator: ",")
  }

  static var fieldLines: [[UInt8]] {
    let names: [[UInt8]] = [
      Array("Host".utf8), Array("x-a!#$%&'*+-.^_`|~9".utf8), [], Array("A B".utf8),
      Array("A(B".utf8), Array("A\"".utf8), Array("Na\u{E9}me".utf8), [0x41, 0x00],
      [0x41, 0x7F], Array(" Host".utf8), Array("\tHost".utf8), Array("Ho/st".utf8),
      Array("Host ".utf8),
    ]
    let values: [[UInt8]] = [
      [], Array("v".utf8), Array("  spaced\t ".utf8), Array("\t\t".utf8),
      Array("a: b: c".utf8), Array("two  words".utf8), Array("\u{B450}\u{BD80} \u{1F415}".utf8),
      [0x61, 0x01, 0x62], [0x61, 0x7F], [0x61, 0x09, 0x62], [0xFF, 0xFE], [0x20, 0x0D, 0x20],
      Array(String(repeating: "j", count: 300).utf8), Array("Bearer eyJ.eyJ.sig ".utf8),
    ]
    var lines: [[UInt8]] = []
    for name in names {
      for value in values {
        lines.append(name + Array(":".utf8) + value)
        lines.append(name + Array(": ".utf8) + value)
        lines.append(name + value)  // no colon at all (most of these)
      }
    }
    lines += [Array(":".utf8), Array("::".utf8), Array(": v".utf8), [0x20], [0x09, 0x3A]]
    return lines
  }

  @Test func aFieldLineIsReadInOnePassAsItsChecksReadItOneByOne() {
    var padded: [UInt8] = Array("GET / HTTP/1.1\r\n".utf8)
    for line in Self.fieldLines {
      let alone = Self.added(line[...], HTTPDecoder.addField)
      #expect(alone == Self.added(line[...], HTTPDecoder.addFieldInParts), "\(line)")
      // A line is a slice of the buffer: not at index 0.
      padded += line
      let slice = padded[(padded.count - line.count)...]
      #expect(Self.added(slice, HTTPDecoder.addField) == alone, "\(line)")
      // What the libcurl transport reads a head line with: the same verdict and field.
      let checked = line.withUnsafeBufferPointer { bytes in
        Result { () throws(HTTPParseError) in try HTTPHeaders.Field(checkedHeaderLine: bytes) }
      }
      switch checked {
      case .success(let field): #expect("\(field.name)|\(field.value)" == alone, "\(line)")
      case .failure(let error): #expect("error \(error.status) \(error.message)" == alone)
      }
    }
  }

  /// `framing` as it read every head before `plainFraming`: the values of both fields listed,
  /// compared and refused as RFC 9112 §6.3 says.
  static func generalFraming(
    _ headers: HTTPHeaders, reading: HTTPDecoder.Reading, limits: HTTPLimits
  ) -> String {
    let encodings = headers.values(for: "Transfer-Encoding")
    let lengths = headers.values(for: "Content-Length")
    if !encodings.isEmpty {
      guard lengths.isEmpty else { return "400" }
      let codings = encodings.flatMap {
        $0.split(separator: ",").map { $0.trimmingSpaces.lowercased() }
      }
      guard codings == ["chunked"] else { return "501" }
      return "chunked"
    }
    guard !lengths.isEmpty else { return reading == .requests ? "none" : "untilClose" }
    let values = Set(lengths.flatMap { $0.split(separator: ",").map(\.trimmingSpaces) })
    guard values.count == 1, let text = values.first, !text.isEmpty, text.utf8.count <= 18,
      text.utf8.allSatisfy({ (48...57).contains($0) }), let length = Int(text)
    else { return "400" }
    guard length <= limits.maxBodyBytes else { return "413" }
    return "length \(length)"
  }

  static func framing(
    _ headers: HTTPHeaders, reading: HTTPDecoder.Reading, limits: HTTPLimits
  ) -> String {
    let decoder = HTTPDecoder(reading: reading, limits: limits)
    do throws(HTTPParseError) {
      switch try decoder.framing(headers, bodyless: false) {
      case .none: return "none"
      case .length(let length): return "length \(length)"
      case .chunked: return "chunked"
      case .untilClose: return "untilClose"
      }
    } catch {
      return "\(error.status)"
    }
  }

  @Test func theCommonFramingIsFoundAsTheGeneralCodeFindsIt() {
    let names = [
      "Content-Length", "content-length", "CONTENT-LENGTH", "Content-Lengths", "Content-Lengt",
      "Transfer-Encoding", "transfer-ENCODING", "Transfer-Encodings",
    ]
    let values = [
      "", "0", "12", " 12", "12 ", "12, 12", "12,13", "1,", "0x10", "+5", "-1", "1e3",
      "123456789012345678", "1234567890123456789", "99999999999999999999", "\u{0661}",
      "chunked", "Chunked", "gzip, chunked", "chunked, chunked", " chunked ", "identity", "x",
    ]
    var sets: [HTTPHeaders] = [HTTPHeaders(), ["Host": "x", "Accept": "*/*"]]
    for name in names {
      for value in values {
        sets.append([name: value])
        sets.append(["Host": "x", name: value, "Accept": "*/*"])
        for other in ["Content-Length", "Transfer-Encoding", "content-length"] {
          for second in ["12", "13", "chunked"] {
            sets.append([name: value, other: second])
          }
        }
      }
    }
    let limits = [
      HTTPLimits.requests, HTTPLimits.responses,
      HTTPLimits(
        maxStartLineBytes: 8_192, maxHeaderBytes: 65_536, maxHeaderCount: 100, maxBodyBytes: 12),
    ]
    for headers in sets {
      for reading in [HTTPDecoder.Reading.requests, .responses] {
        for limit in limits {
          #expect(
            Self.framing(headers, reading: reading, limits: limit)
              == Self.generalFraming(headers, reading: reading, limits: limit),
            "\(headers.fields) \(reading) \(limit.maxBodyBytes)")
        }
      }
    }
  }

  /// The version as read from a copy of its bytes, before it was read in place.
  static func copiedVersion(_ version: ArraySlice<UInt8>) -> String {
    let version = Array(version)
    guard version.count == 8, version.starts(with: Array("HTTP/".utf8)),
      version[6] == UInt8(ascii: "."),
      (48...57).contains(version[5]), (48...57).contains(version[7])
    else { return "400" }
    guard version[5] == UInt8(ascii: "1") else { return "505" }
    return "\(Int(version[7] - 48))"
  }

  @Test func theVersionIsReadInPlaceAtAnyOffset() {
    let versions = [
      "HTTP/1.1", "HTTP/1.0", "HTTP/1.9", "HTTP/2.0", "HTTP/0.9", "HTTP/1.a", "HTTP/a.1",
      "HTTP/1,1", "HTTP/11", "HTTP/1.10", "http/1.1", "HTTP/1.", "", "HTTPS/1.1", "XTTP/1.1",
    ]
    for version in versions {
      for padding in [0, 1, 5, 17] {
        let bytes = Array(repeating: UInt8(ascii: "x"), count: padding) + Array(version.utf8)
        let slice = bytes[padding...]
        var read: String
        do throws(HTTPParseError) {
          read = "\(try HTTPDecoder.minorVersion(slice, as: "test"))"
        } catch {
          read = "\(error.status)"
        }
        #expect(read == Self.copiedVersion(slice), "\(version) at \(padding)")
      }
    }
  }

  /// A target is taken as it is when it starts with `/` as a String (its first character);
  /// the decoder looks at its first byte, which is the same for the visible ASCII it allows.
  @Test func aTargetStartsWithASlashWhenItsFirstCharacterIsOne() {
    for target in ["/", "/a?b=c", "*", "http://h/p?q", "HTTPS://h", "a/b", "%2F", "?x", "//"] {
      var decoder = HTTPDecoder(reading: .requests, limits: .requests)
      decoder.append(contentsOf: Array("GET \(target) HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
      var got: String
      do throws(HTTPParseError) {
        guard case .requestHead(let head) = try decoder.next() else {
          Issue.record("no head for \(target)")
          continue
        }
        got = head.target
      } catch {
        got = "error \(error.status)"
      }
      let expected =
        target.hasPrefix("/") ? target : HTTPDecoder.originForm(of: target) ?? "error 400"
      #expect(got == expected, "\(target)")
    }
  }
}
