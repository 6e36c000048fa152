import Foundation
import SNMQuery
import SNMWire
import Testing

@testable import SNMShell

/// Issue 16 item 2: at a narrow terminal a table wraps its text and never cuts a value; when it
/// cannot fit even so, `set expanded auto` prints it expanded.
@Suite struct WrappedTableTests {
  static let uuid = "0c8e5f7a-6b9d-4f1e-9a3b-2d4c6e8f0a1b"
  static let note = "walks twice a day along the river, then sleeps by the door until dinner"
  static let body = """
    [{"id": "\(uuid)", "price": 1234.56, "memo": null, "note": "\(note)"},
     {"id": "1d9f6a8b-7cae-4a2f-8b4c-3e5d7f9a1b2c", "price": 7, "memo": "NULL", "note": "short"}]
    """

  /// The body rendered from its tree and from its bytes (both paths must agree).
  func rendered(_ format: OutputFormat, _ style: RenderStyle) throws -> String {
    let writer = OutputWriter()
    ResultRenderer(format: format, style: style).render(
      try JSONValue(parsing: Self.body), to: writer)
    let streamed = OutputWriter()
    let document = try JSONDocument(validating: Data(Self.body.utf8))
    #expect(try ResultRenderer(format: format, style: style).render(document, to: streamed))
    #expect(writer.captured == streamed.captured, "the streamed rows print differently")
    return writer.captured
  }

  func lines(_ text: String) -> [Substring] { text.split(separator: "\n") }

  @Test func atSeventyTwoColumnsTextWrapsAndValuesStayWhole() throws {
    let text = try rendered(.table, RenderStyle(width: 72, autoExpand: true))
    for line in lines(text) { #expect(DisplayWidth.of(line) <= 72, "too wide: \(line)") }
    for whole in [Self.uuid, "1234.56", "NULL", "\"NULL\""] {
      #expect(text.contains(whole), "\(whole) was cut:\n\(text)")
    }
    #expect(!text.contains("…"))
    // The note is on more lines, in the same column, and reads whole when put back together.
    let start = try #require(lines(text).first { $0.contains("walks") }?.range(of: "walks"))
    let column = lines(text).first { $0.contains("walks") }.map {
      DisplayWidth.of($0[..<start.lowerBound])
    }
    var pieces = ""
    for line in lines(text).drop(while: { !$0.contains("walks") }).prefix(while: {
      !$0.contains("short")
    }) {
      let characters = Array(line)
      guard let column, characters.count > column else { continue }
      pieces += String(characters[column...]).trimmingCharacters(in: .whitespaces)
    }
    #expect(
      pieces.replacingOccurrences(of: " ", with: "")
        == Self.note.replacingOccurrences(of: " ", with: ""))
    #expect(lines(text).count > 6)
  }

  @Test func aWideTerminalKeepsEveryRowOnOneLine() throws {
    let text = try rendered(.table, RenderStyle(width: 200, autoExpand: true))
    #expect(text == (try rendered(.table, RenderStyle())))
    #expect(lines(text).count == 5)
  }

  @Test func tooNarrowEvenWrappedPrintsExpandedWhenAuto() throws {
    // At 60 columns the UUID, the price, the two NULLs and ten columns of the note need 70.
    let text = try rendered(.table, RenderStyle(width: 60, autoExpand: true))
    #expect(text.hasPrefix("-[ RECORD 1 ]"), "\(text)")
    for line in lines(text) { #expect(DisplayWidth.of(line) <= 60, "too wide: \(line)") }
    #expect(text.contains("id    | \(Self.uuid)"))
    #expect(text.contains("price | 1234.56"))
    // Without auto the table keeps its columns at their narrowest, wider than the terminal,
    // and still cuts nothing.
    let table = try rendered(.table, RenderStyle(width: 60, autoExpand: false))
    #expect(table.contains(Self.uuid) && !table.contains("…"))
    #expect(lines(table).first?.contains("price") == true)
  }

  @Test func oneColumnNeverExpands() throws {
    let writer = OutputWriter()
    ResultRenderer(format: .table, style: RenderStyle(width: 20, autoExpand: true)).render(
      [["note": .string(Self.note)]], to: writer)
    #expect(!writer.captured.contains("RECORD"))
    for line in lines(writer.captured) { #expect(DisplayWidth.of(line) <= 20, "too wide: \(line)") }
  }

  @Test func expandedRecordsWrapLongValues() throws {
    let text = try rendered(.expanded, RenderStyle(width: 30))
    // Only a line with a UUID (kept whole: the terminal wraps it, a copy gets it back) is wider.
    for line in lines(text) where !line.contains("-4") {
      #expect(DisplayWidth.of(line) <= 30, "too wide: \(line)")
    }
    #expect(text.contains("id    | \(Self.uuid)"), "a UUID stays whole even past the width")
    #expect(!text.contains("…"))
    #expect(text.contains("      | "), "continuation lines sit under the value")
  }

  @Test func cellsWrapBetweenCharactersAndKeepWideOnesWhole() throws {
    #expect(CellText(.string("abcdef")).lines(width: 4) == ["abcd", "ef"])
    #expect(CellText(.string("김민지김")).lines(width: 3) == ["김", "민", "지", "김"])
    #expect(CellText(.string(Self.uuid)).lines(width: 10) == [Self.uuid[...]])
    #expect(CellText(try JSONValue(parsing: "1234.56")).lines(width: 2).count == 1)
    #expect(CellText(.string("2026-11-29T10:00:00+00:00")).isAtomic)
    #expect(!CellText(.string("hello world")).isAtomic)
  }
}
