import Foundation
import SNMTestSupport
import Testing

@testable import SNMWire

/// The check on arrival writing rows as it reads them (``ArrivingLines``), as ndjson lines and as
/// json indents them: the same verdict and shape as the check alone, and text byte for byte as
/// the writer writes those rows.
@Suite struct ArrivingLinesTests {
  /// `bytes` checked as they arrive: a run after each of `arrivals` (how many bytes came by then),
  /// the bytes the check never reads again dropped after each run when `windowed` (as a
  /// spilling reader does), then the whole; with lines written (at most `most` held, the rest
  /// set aside in `spool`): the shape and the lines.
  private static func arriving(
    _ bytes: [UInt8], arrivals: [Int], windowed: Bool, layout: ArrivingLines.Layout = .lines,
    most: Int = 1 << 20, spool: MemorySpool? = nil
  ) -> (JSONShape?, ArrivingLines) {
    var checker = JSONStreamValidator(runningEvery: 1)
    let lines = ArrivingLines(most: most, layout: layout)
    lines.spool = spool
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

  /// The check's verdict on `bytes` read whole.
  private static func verdict(_ bytes: [UInt8]) -> JSONShape? {
    bytes.withUnsafeBufferPointer { buffer in
      var validator = JSONValidator(buffer)
      return validator.validate()
    }
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

  /// Past `most`, the text goes to the spool at a row's end and the taking goes on: every row
  /// after the first but the last (no `,` follows it) is taken, the pieces set aside and the
  /// text after them are the writer's text of those rows, and each piece ends where a row does.
  /// A spool that takes no more stops the taking where `most` stops it without one.
  @Test func rowsPastTheMostGoOnInTheSpool() throws {
    let names = ["Bori", "두부 🐕", "𝄞", "x"]
    let text = Self.body((0..<120).map { Self.row($0, name: names[$0 % names.count]) })
    let bytes = Array(text.utf8)
    let whole = try #require(Self.verdict(bytes))
    let document = JSONDocument(checked: Data(bytes), shape: whole)
    for layout in [ArrivingLines.Layout.lines, .indented] {
      let all = try Self.written(document, from: .start, layout: layout)
      for step in [nil, 7, 4096] {
        let arrivals = step.map { Array(stride(from: $0, to: bytes.count, by: $0)) } ?? [300]
        for windowed in [false, true] {
          let way =
            "\(layout), step \(step.map(String.init) ?? "300 then the rest"), windowed \(windowed)"
          let spool = MemorySpool()
          let (shape, lines) = Self.arriving(
            bytes, arrivals: arrivals, windowed: windowed, layout: layout, most: 1024,
            spool: spool)
          #expect(shape == whole, "\(way)")
          let start = try #require(lines.start?.count, "\(way)")
          #expect(start >= 1 && start < 20 && lines.end?.count == 119, "\(way)")
          #expect(spool.pieces.count > 8 && spool.pieces.allSatisfy { $0 >= 1024 }, "\(way)")
          let expected = all[start..<119].flatMap { $0 }
          #expect(spool.bytes + lines.withText { Array($0) } == expected, "\(way)")
          // Each piece ends where a row's text ends, counted from the first row taken.
          var ends: Set<Int> = []
          var offset = 0
          for line in all[start...] {
            offset += line.count
            ends.insert(offset)
          }
          var set = 0
          for piece in spool.pieces {
            set += piece
            #expect(ends.contains(set), "\(way): a piece ends at \(set), not a row's end")
          }
        }
      }
      let refusing = MemorySpool(taking: 2)
      let (shape, lines) = Self.arriving(
        bytes, arrivals: [300], windowed: false, layout: layout, most: 1024, spool: refusing)
      #expect(shape == whole)
      let end = try #require(lines.end?.count)
      #expect(refusing.pieces.count == 2 && end < 119, "\(layout)")
      #expect(lines.withText { $0.count } >= 1024, "\(layout)")
      let start = try #require(lines.start?.count)
      #expect(
        refusing.bytes + lines.withText { Array($0) } == all[start..<end].flatMap { $0 })
    }
  }

  /// Nested objects and arrays, repeating the row before's, differing from it in one digit, or
  /// in turn 64 deep in a member (65 are left to the check), are written as the writer writes
  /// them, wherever they arrive and the text is set aside.
  @Test func nestedValuesAreWrittenAsTheWriterWritesThem() throws {
    func nested(_ depth: Int) -> String {
      (0..<depth).reversed().reduce("true") { inner, level in
        level % 2 == 0 ? #"{"k": \#(inner), "e": {}}"# : "[\(inner), 0]"
      }
    }
    let values = [
      #"{"vet": {"name": "Seoul Vet", "visits": [2023, 2024]}, "tricks": ["sit", "paw"]}"#,
      #"{"vet": {"name": "Seoul Vet", "visits": [2023, 2025]}, "tricks": ["sit", "paw"]}"#,
      #"[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, "eleven", {"twelve": [13]}]"#, nested(64),
    ]
    let order = [0, 0, 1, 0, 0, 0, 1, 1, 2, 0, 2, 2, 3, 3, 0, 3, 1]
    let rows = (0..<60).map { #"{"id":\#($0),"v":\#(values[order[$0 % order.count]]),"n":1}"# }
    #expect(try Self.agree(Self.body(rows)) == 58)
    #expect(try Self.agree(Self.body(rows, separator: ",")) == 58)
    var deeper = rows
    deeper[40] = #"{"id":40,"v":\#(nested(65)),"n":1}"#
    #expect(try Self.agree(Self.body(deeper)) == 39)
    let bytes = Array(Self.body(rows).utf8)
    let whole = try #require(Self.verdict(bytes))
    let document = JSONDocument(checked: Data(bytes), shape: whole)
    for layout in [ArrivingLines.Layout.lines, .indented] {
      let all = try Self.written(document, from: .start, layout: layout)
      for (arrivals, way) in Self.arrivals(
        of: bytes, firstRow: rows[0], steps: [nil, 5, 333], layout)
      {
        let spool = MemorySpool()
        let (shape, lines) = Self.arriving(
          bytes, arrivals: arrivals, windowed: true, layout: layout, most: 700, spool: spool)
        #expect(shape == whole, "\(way)")
        let start = try #require(lines.start?.count, "\(way)")
        #expect(lines.end?.count == 59 && spool.pieces.count > 4, "\(way)")
        #expect(spool.bytes + lines.withText { Array($0) } == all[start..<59].flatMap { $0 })
      }
    }
  }

  /// How a body arrives, each with its name for a failure's message: `step` bytes at a time, or
  /// (nil) the first row and its `,`, then the rest.
  static func arrivals(
    of bytes: [UInt8], firstRow: String, steps: [Int?], _ layout: ArrivingLines.Layout
  ) -> [(arrivals: [Int], way: String)] {
    steps.map { step in
      let first = [1 + firstRow.utf8.count + 1]
      let arrivals = step.map { Array(stride(from: $0, to: bytes.count, by: $0)) } ?? first
      return (arrivals, "\(layout), step \(step.map(String.init) ?? "the first row then the rest")")
    }
  }

  /// A row that writes more than the room left (a 77 KB string; as json, 600 elements 60 deep,
  /// each indented 125 spaces, from 3 KB) is walked again in more room: every row from the
  /// first the check left to the last but one is taken, in the spool and the text after it as
  /// the writer writes them, arriving 4 KiB at a time or the first row and then the rest.
  @Test func rowsLargerThanTheRoomLeftAreWrittenWhole() throws {
    let deep =
      String(repeating: "[", count: 60) + (0..<600).map(String.init).joined(separator: ",")
      + String(repeating: "]", count: 60)
    let long = "\"" + String(repeating: "두부 dog ", count: 7_000) + "\""
    let rows = (0..<6).map { #"{"id":\#($0),"v":\#($0 % 2 == 0 ? long : deep),"n":1}"# }
    let bytes = Array(Self.body(rows).utf8)
    let whole = try #require(Self.verdict(bytes))
    let document = JSONDocument(checked: Data(bytes), shape: whole)
    for layout in [ArrivingLines.Layout.lines, .indented] {
      let all = try Self.written(document, from: .start, layout: layout)
      for (arrivals, way) in Self.arrivals(
        of: bytes, firstRow: rows[0], steps: [nil, 4096], layout)
      {
        let spool = MemorySpool()
        let (shape, lines) = Self.arriving(
          bytes, arrivals: arrivals, windowed: false, layout: layout, most: 1024, spool: spool)
        #expect(shape == whole, "\(way)")
        let start = try #require(lines.start?.count, "\(way)")
        // A long row and a deep one taken at least (the check may pass the first deep one).
        #expect(start >= 1 && start <= 2 && lines.end?.count == 5, "\(way)")
        #expect(lines.text.capacity > 1024 + ArrivingLines.pastMost, "\(way)")
        // Compared whole: a failure's difference of two 300 KB arrays takes minutes to show.
        let same = spool.bytes + lines.withText { Array($0) } == all[start..<5].flatMap { $0 }
        #expect(same, "\(way)")
      }
    }
  }

  /// Giving up (the body's file needs the room the spool's holds) leaves no row taken and the
  /// spool let go, so the rows are written from the body; with nothing set aside it frees no
  /// room and gives up nothing.
  @Test func givingUpLeavesEveryRowToTheBody() throws {
    let bytes = Array(Self.body((0..<120).map { Self.row($0) }).utf8)
    let (_, small) = Self.arriving(bytes, arrivals: [300], windowed: false, spool: MemorySpool())
    #expect(small.end?.count == 119 && !small.giveUp() && small.end?.count == 119)
    let spool = MemorySpool()
    let (shape, lines) = Self.arriving(
      bytes, arrivals: [300], windowed: false, most: 1024, spool: spool)
    #expect(shape != nil && spool.pieces.count > 1 && lines.end?.count == 119)
    #expect(lines.giveUp())
    #expect(lines.start == nil && lines.end == nil && lines.spool == nil)
    #expect(lines.withText { $0.count } == 0)
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
