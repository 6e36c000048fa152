import Foundation
import SNMWire
import Testing

@testable import SNMNetwork

/// A body of `count` rows, about 80 bytes each, whose keys escape nothing.
private func rows(_ count: Int, lastKey: String = "traits") -> String {
  let rows = (0..<count).map {
    #"{"id":\#($0),"name":"dog \"\#($0)\", 두부","\#($0 == count - 1 ? lastKey : "traits")":[1]}"#
  }
  return "[" + rows.joined(separator: ",") + "]\n"
}

/// `body` as a chunked answer with `status`, the chunks `size` bytes, and (`whole`) its last chunk.
private func chunked(_ body: String, status: String = "200 OK", whole: Bool = true) -> [[UInt8]] {
  let bytes = Array(body.utf8)
  var parts = [Array("HTTP/1.1 \(status)\r\nTransfer-Encoding: chunked\r\n\r\n".utf8)]
  for start in stride(from: 0, to: bytes.count, by: 4096) {
    let chunk = bytes[start..<min(bytes.count, start + 4096)]
    parts.append(Array(String(chunk.count, radix: 16).utf8) + [13, 10] + chunk + [13, 10])
  }
  if whole { parts.append(Array("0\r\n\r\n".utf8)) }
  return parts
}

/// A folder of its own for the spilled files, removed after `body`.
private func inFolder<T>(_ body: (String) throws -> T) throws -> T {
  let folder = FileManager.default.temporaryDirectory
    .appendingPathComponent("snm-spill-\(UUID().uuidString)").path
  try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(atPath: folder) }
  return try body(folder)
}

/// Reads `parts` as a connection hands them over, spilling past 128 KiB (at most `most` bytes),
/// the rows written as they are checked in `writesRows`' layout when it is given.
private func read(
  _ parts: [[UInt8]], folder: String, most: Int = 1 << 30,
  writesRows: ArrivingLines.Layout? = nil
) throws(PlainHTTPFailure) -> PlainHTTPAnswer {
  let spill = BodySpill(memoryBytes: 128 << 10, mostBytes: most, directory: folder)
  var reader = PlainHTTPReader(
    buffered: [], maximumBodyBytes: 256 << 10,
    arriving: ArrivingElements(spill: spill, writesRows: writesRows))
  var next = 0
  return try reader.readAnswer(isHead: false) { () throws(PlainHTTPFailure) -> [UInt8] in
    defer { next += 1 }
    return next < parts.count ? parts[next] : []
  }
}

private func files(in folder: String) -> [String] {
  (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
}

@Suite struct PlainHTTPReaderSpillTests {
  @Test func aRowsBodyPastTheBoundIsTheFileMappedWithTheShapeOfTheWhole() throws {
    try inFolder { folder in
      // 20,000 rows (1.6 MB), past the reader's own limit (256 KiB) for a body in memory.
      let body = rows(20_000)
      let answer = try read(chunked(body), folder: folder)
      #expect(answer.spilled)
      #expect(answer.body == Data(body.utf8))
      #expect(answer.checkedShape == JSONShape(kind: .array, count: 20_000, uniformObjects: true))
      #expect(files(in: folder).isEmpty, "the file is unlinked as soon as it is made")
      // A last row whose keys differ, long after the first row left the window.
      let other = try read(chunked(rows(20_000, lastKey: "tricks")), folder: folder)
      #expect(other.checkedShape == JSONShape(kind: .array, count: 20_000, uniformObjects: false))
    }
  }

  /// The rows json and ndjson write as they are checked go on past what memory holds of their
  /// text (the bound less 64 KiB), in a file of the spill's folder that leaves no name behind:
  /// every row after those the first run checked but the last (no `,` follows it) is taken. Past the spill's
  /// `mostBytes` of text, the rows left are the check's, as past the bound without a file.
  @Test func rowsWrittenAsTheyArriveGoOnPastTheBoundInAFile() throws {
    let rows = (0..<20_000).map { #"{"id":\#($0),"name":"dog \#($0), 두부","traits":[1]}"# }
    let body = "[" + rows.joined(separator: ", \n ") + "]"
    try inFolder { folder in
      for layout in [ArrivingLines.Layout.lines, .indented] {
        let answer = try read(chunked(body), folder: folder, writesRows: layout)
        #expect(answer.spilled && answer.body == Data(body.utf8))
        let lines = try #require(answer.arrived as? ArrivingLines)
        // The first rows are the check's (its first run is at 64 KiB), then every row is taken.
        #expect((lines.start?.count ?? 0) >= 1 && lines.end?.count == 19_999, "\(layout)")
        #expect(files(in: folder).isEmpty)
      }
      // At most 1.2 MB (the body is 1.1 MB, json's indented text of its rows 1.8 MB): the rows
      // after what the file took are left to the check.
      let bounded = try read(
        chunked(body), folder: folder, most: 1_200_000, writesRows: .indented)
      let held = try #require(bounded.arrived as? ArrivingLines)
      let end = try #require(held.end?.count)
      #expect(end < 19_999 && end > 1_000)
      #expect(bounded.checkedShape?.count == 20_000)
    }
  }

  @Test func aSmallBodyOrAnErrorStaysInMemory() throws {
    try inFolder { folder in
      let small = try read(chunked(rows(100)), folder: folder)
      #expect(!small.spilled && small.body == Data(rows(100).utf8))
      #expect(throws: PlainHTTPFailure.tooLarge(256 << 10)) {
        try read(chunked(rows(20_000), status: "500 Internal Server Error"), folder: folder)
      }
    }
  }

  @Test func aBodyCutOffOrNotJSONOrPastTheSpillLimitFails() throws {
    try inFolder { folder in
      let cut = chunked(rows(20_000), whole: false)
      #expect(throws: PlainHTTPFailure.self) { try read(cut, folder: folder) }
      let bad = String(rows(20_000).dropLast(2)) + ",x]"
      #expect(throws: PlainHTTPFailure.self) { try read(chunked(bad), folder: folder) }
      #expect(throws: PlainHTTPFailure.tooLarge(1 << 20)) {
        try read(chunked(rows(20_000)), folder: folder, most: 1 << 20)
      }
      #expect(files(in: folder).isEmpty)
    }
  }

  @Test func aFolderThatCannotTakeTheFileFailsNamingIt() throws {
    let missing = "/nonexistent-\(UUID().uuidString)"
    #expect {
      try read(chunked(rows(20_000)), folder: missing)
    } throws: { error in
      guard case .localFile(let failure) = error as? PlainHTTPFailure else { return false }
      return failure.description
        == "cannot make a temporary file for the answer in '\(missing)': No such file or "
        + "directory (TMPDIR chooses the folder)"
    }
  }
}
