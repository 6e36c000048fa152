import Foundation
import Testing

@testable import SNMWire

/// The check on arrival writing rows as it reads them (``ArrivingLines``), as ndjson lines and as
/// json indents them: the same verdict and shape as the check alone, and text byte for byte as
/// the writer writes those rows.
@Suite struct ArrivingLinesTests {
  /// `bytes` checked as they arrive: a run after each of `arrivals` (how many bytes came by then),
  /// the bytes the check never reads again dropped after each run when `windowed` (as a
  /// spilling reader does), then the whole; with lines written: the shape and the lines.
  private static func arriving(
    _ bytes: [UInt8], arrivals: [Int], windowed: Bool, layout: ArrivingLines.Layout = .lines
  ) -> (JSONShape?, ArrivingLines) {
    var checker = JSONStreamValidator(runningEvery: 1)
    let lines = ArrivingLines(most: 1 << 20, layout: layout)
    checker.lines = lines
    var window: [UInt8] = []
    var received = 0
    for arrived in arrivals + [bytes.count] where arrived > received {
      window.append(contentsOf: bytes[received..<arrived])
      received = arrived
      window.withUnsafeBufferPointer { checker.received($0) }
      if windowed, let unneeded = checker.unneeded {
        window.removeSubrange(unneeded)
        checker.dropped(unneeded)
      }
    }
    return (window.withUnsafeBufferPointer { checker.finish($0) }, lines)
  }

  /// The writer's text of each element of `document` from `position`: its ndjson line, or (json)
  /// the `,`, line end and indentation before it and the element indented one level deep.
  private static func written(
    _ document: JSONDocument, from position: JSONElements.Position, layout: ArrivingLines.Layout
  ) throws -> [[UInt8]] {
    try document.withElements(from: position) { elements in
      var lines: [[UInt8]] = []
      var line: [UInt8] = layout == .lines ? [] : Array(",\n  ".utf8)
      let indent = layout == .lines ? nil : 2
      while try elements.appendNextText(to: &line, indent: indent, depth: indent == nil ? 0 : 1) {
        lines.append(layout == .lines ? line + [0x0A] : line)
        line = layout == .lines ? [] : Array(",\n  ".utf8)
      }
      return lines
    }
  }

  /// Checks `text` as it may arrive (`step` bytes at a time, or its first row and then the rest
  /// when `step` is nil): the verdict is the check's alone, and the lines are the writer's for
  /// the rows they hold, which go on where the rest starts. Returns how many rows the lines held
  /// (the last way).
  @discardableResult
  private static func agree(_ text: String, steps: [Int?] = [nil, 1, 7, 64], _ note: String = "")
    throws -> Int
  {
    let bytes = Array(text.utf8)
    let whole = bytes.withUnsafeBufferPointer { buffer in
      var validator = JSONValidator(buffer)
      return validator.validate()
    }
    // Past the first `,` after the first `}`: the first row and its separator.
    let firstRow = bytes.firstIndex(of: 0x7D).flatMap { close in
      bytes[close...].firstIndex(of: 0x2C).map { $0 + 1 }
    }
    var held = 0
    for step in steps {
      let arrivals =
        step.map { Array(stride(from: $0, to: bytes.count, by: $0)) } ?? [firstRow ?? 0]
      for windowed in [false, true] {
        for layout in [ArrivingLines.Layout.lines, .indented] {
          let (shape, lines) = arriving(
            bytes, arrivals: arrivals, windowed: windowed, layout: layout)
          let way =
            "step \(step.map(String.init) ?? "first row"), windowed \(windowed), \(layout) \(note)"
          #expect(shape == whole, "\(way)")
          held = 0
          guard let shape, let start = lines.start, let end = lines.end else { continue }
          let document = JSONDocument(checked: Data(bytes), shape: shape)
          let all = try written(document, from: .start, layout: layout)
          #expect(start.count >= 1 && end.count < shape.count, "\(way)")
          let expected = all[start.count..<end.count].flatMap { $0 }
          #expect(lines.withText { Array($0) } == expected, "\(way)")
          #expect(
            try written(document, from: end, layout: layout) == Array(all[end.count...]),
            "\(way)")
          held = end.count - start.count
        }
      }
    }
    return held
  }

  /// Rows as PostgREST sends them: keys without spaces, a jsonb value with jsonb's spacing.
  private static func row(_ index: Int, name: String = "Bori", extra: String = "") -> String {
    #"{"id":\#(index),"name":"\#(name)","age":3,"weight_kg":18.50,"is_public":true,"#
      + #""birth_date":null,"traits":{"vet": {"name": "Seoul Vet", "visits": [2023, 2024]}, "#
      + #""tricks": ["sit", "paw"], "friendly": true, "e": [], "o": {}},"lat":-1.5e-3\#(extra)}"#
  }

  private static func body(_ rows: [String], separator: String = ", \n ") -> String {
    "[" + rows.joined(separator: separator) + "]"
  }

  @Test func takesPostgRESTRowsAsTheWriterWritesThem() throws {
    let names = ["Bori", "두부 🐕", "quote", "\u{7F}del", "\u{A0}nbsp", "\u{FFFF}", "𝄞"]
    let rows = (0..<40).map { Self.row($0, name: names[$0 % names.count]) }
    #expect(try Self.agree(Self.body(rows)) == 38)
    #expect(try Self.agree(Self.body(rows, separator: ",")) == 38)
    #expect(try Self.agree(" \n" + Self.body(rows, separator: " ,\t") + " \n") == 38)
  }

  @Test func leavesRowsItDoesNotTakeToTheCheck() throws {
    let plain = (0..<6).map { Self.row($0) }
    // Each stops the taking at the row it is in: the rest is checked and written as before.
    let others = [
      Self.row(3, name: #"a \"quoted\" name"#), Self.row(3, name: "\\u00e9"),
      Self.row(3, name: "c1 \u{85} control"), Self.row(3, extra: #","more":1"#),
      #"{"id":3,"age":3}"#, #"{"name":"x","id":3}"#, "[1, 2]", "7", "null", #""text""#,
      #"{"id":3,"name":"#
        + String(repeating: "[", count: 70) + String(repeating: "]", count: 70) + "}",
    ]
    for other in others {
      var rows = plain
      rows[3] = other
      #expect(try Self.agree(Self.body(rows), other) == 2, "\(other)")
    }
    // A first row whose keys are not copied as they are: nothing is taken.
    let long = #"{"a key longer than fifteen":1}"#
    #expect(try Self.agree(Self.body(Array(repeating: long, count: 5))) == 0)
    let escaped = #"{"k\u0065y":1}"#
    #expect(try Self.agree(Self.body(Array(repeating: escaped, count: 5))) == 0)
  }

  @Test func refusesWhatTheCheckRefusesWhereverARowIsDamaged() throws {
    let text = Self.body((0..<4).map { Self.row($0, name: "두부") })
    let bytes = Array(text.utf8)
    let pieces: [[UInt8]] = [
      [0x01], [0x22], [0x5C], [0x2C], [0x3A], [0x7B], [0x7D], [0x5B], [0x5D], [0x20], [0x30],
      [0x2D], [0x2E], [0x65], [0xC2], [0xC2, 0x85], [0xED, 0xA0, 0x80], [0xFF], Array("tru".utf8),
      Array("01".utf8), Array("1.".utf8), Array("nul".utf8),
    ]
    var texts: [[UInt8]] = []
    // Damage in the second and third rows (taken when whole).
    let first = bytes[bytes.firstIndex(of: 0x7D)!...].firstIndex(of: 0x2C)! + 1
    for at in first..<(first + (bytes.count - first) / 2) {
      for piece in pieces {
        texts.append(Array(bytes[..<at]) + piece + Array(bytes[(at + 1)...]))
        texts.append(Array(bytes[..<at]) + piece + Array(bytes[at...]))
      }
      texts.append(Array(bytes[..<at]) + Array(bytes[(at + 1)...]))
    }
    var checked = 0
    for damaged in texts {
      guard let text = String(validating: damaged, as: UTF8.self) else {
        // Not UTF-8: the verdict alone, through the bytes.
        let (shape, _) = Self.arriving(damaged, arrivals: [first], windowed: false)
        let whole = damaged.withUnsafeBufferPointer { buffer in
          var validator = JSONValidator(buffer)
          return validator.validate()
        }
        #expect(shape == whole)
        continue
      }
      try Self.agree(text, steps: [nil])
      checked += 1
    }
    #expect(checked > 1000)
  }
}
