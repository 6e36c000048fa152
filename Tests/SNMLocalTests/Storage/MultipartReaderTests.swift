import Testing

@testable import SNMLocal
@testable import SNMLocalStorage

/// A form as storage3 and supabase-swift send it reads the same whatever pieces it comes in.
@Suite struct MultipartReaderTests {
  static let body = Array(
    ("--XyZ\r\nContent-Disposition: form-data; name=\"cacheControl\"\r\n\r\n3600\r\n"
      + "--XyZ\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a b.png\"\r\n"
      + "Content-Type: image/png\r\n\r\n\r\n--XyYnot-yet\r\n-- data\r\n--Xy\r\n--XyZ--\r\n").utf8)

  /// The events of `bytes` fed in pieces of `size`, as text.
  static func read(_ bytes: [UInt8], pieces size: Int) throws -> [String] {
    var reader = MultipartReader(boundary: "XyZ")
    var events: [String] = []
    var data: [UInt8] = []
    var start = 0
    while start < bytes.count {
      let piece = Array(bytes[start..<min(bytes.count, start + size)])
      try piece.withUnsafeBytes { raw in
        try reader.feed(raw) { event in
          switch event {
          case .partStart(let name, let filename, let type):
            events.append("start \(name) \(filename ?? "-") \(type ?? "-")")
          case .data(let bytes):
            data += bytes
          case .partEnd:
            events.append("data " + String(decoding: data, as: UTF8.self).debugDescription)
            data = []
          }
        }
      }
      start += size
    }
    events.append(reader.isFinished ? "finished" : "unfinished")
    return events
  }

  @Test(arguments: [1, 2, 3, 7, 16, 64, 4096]) func readsTheSameInAnyPieces(_ size: Int) throws {
    #expect(
      try Self.read(Self.body, pieces: size) == [
        "start cacheControl - -", #"data "3600""#, "start file a b.png image/png",
        #"data "\r\n--XyYnot-yet\r\n-- data\r\n--Xy""#, "finished",
      ])
  }

  @Test func aBodyCutShortIsUnfinished() throws {
    let cut = Array(Self.body.prefix(Self.body.count - 12))
    #expect(try Self.read(cut, pieces: 5).last == "unfinished")
  }

  @Test func somethingThatIsNoFormIsRefused() {
    let junk = Array(repeating: UInt8(ascii: "a"), count: 70_000)
    #expect(throws: StorageFailure.self) { try Self.read(junk, pieces: 70_000) }
  }

  @Test func theBoundaryComesFromTheContentType() {
    #expect(MultipartReader.boundary(of: "multipart/form-data; boundary=abc") == "abc")
    #expect(
      MultipartReader.boundary(of: #"multipart/form-data; charset=x; boundary="a b""#) == "a b")
    #expect(MultipartReader.boundary(of: "multipart/form-data") == nil)
  }
}
