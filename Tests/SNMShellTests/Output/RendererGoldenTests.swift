import Foundation
import SNMNetwork
import SNMQuery
import SNMTestSupport
import SNMWire
import Testing

@testable import SNMShell

/// A response body and a name for its golden files.
struct OutputCase: Sendable, CustomStringConvertible {
  let name: String
  let body: String
  var description: String { name }
}

private func fixture(_ name: String) -> String {
  let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures/output/\(name)")
  return (try? String(contentsOf: url, encoding: .utf8)) ?? "null"
}

private let cases = [
  OutputCase(name: "user_info", body: fixture("user_info.response.json")),
  OutputCase(
    name: "one_row",
    body: #"[{"id": 1, "name": "Bori", "owner": {"name": "김민지", "age": 5}}]"#),
  OutputCase(name: "empty", body: "[]"),
  OutputCase(name: "single_object", body: #"{"id": 7, "name": "🐶 Choco", "age": null}"#),
  OutputCase(name: "scalar", body: "42"),
  OutputCase(name: "scalar_rows", body: #"[1, 2.5, "three", null]"#),
]

private func rendered(_ item: OutputCase, _ format: OutputFormat, style: RenderStyle = .init())
  throws -> String
{
  let value = try JSONValue(parsing: item.body)
  let writer = OutputWriter()
  ResultRenderer(format: format, style: style).render(value, defaultColumn: "sum", to: writer)
  return writer.captured
}

@Test(arguments: cases)
func everyFormatMatchesItsGoldenFile(_ item: OutputCase) throws {
  for format in OutputFormat.allCases {
    expectSnapshot(try rendered(item, format), named: "output/\(item.name).\(format.rawValue)")
  }
}

@Test func tablesFitANarrowTerminal() throws {
  // Too wide for 72 columns even wrapped (a UUID and a timestamp are never broken): expanded.
  let text = try rendered(cases[0], .table, style: RenderStyle(width: 72, autoExpand: true))
  expectSnapshot(text, named: "output/user_info.table-72")
  #expect(text.hasPrefix("-[ RECORD 1 ]"))
  for line in text.split(separator: "\n") {
    #expect(DisplayWidth.of(line) <= 72, "too wide: \(line)")
  }
  // Wide enough once the text columns wrap: a table, every line within 140 columns.
  let wrapped = try rendered(cases[0], .table, style: RenderStyle(width: 140, autoExpand: true))
  expectSnapshot(wrapped, named: "output/user_info.table-140")
  for line in wrapped.split(separator: "\n") {
    #expect(DisplayWidth.of(line) <= 140, "too wide: \(line)")
  }
  for value in ["0c8e5f7a-6b9d-4f1e-9a3b-2d4c6e8f0a1b", "2026-11-29T10:00:00+00:00"] {
    #expect(text.contains(value) && wrapped.contains(value), "\(value) was cut")
  }
  let expanded = try rendered(cases[0], .expanded, style: RenderStyle(width: 40))
  expectSnapshot(expanded, named: "output/user_info.expanded-40")
  // Long text wraps; only a UUID, kept whole, passes 40 columns.
  for line in expanded.split(separator: "\n") where !line.hasPrefix("id ") {
    #expect(DisplayWidth.of(line) <= 40, "too wide: \(line)")
  }
  #expect(!expanded.contains("…"))
}

@Test func colourMarksHeadersAndNullsOnly() throws {
  let text = try rendered(cases[3], .table, style: RenderStyle(colour: true))
  #expect(text.contains("\u{1B}[1mname\u{1B}[0m"))
  #expect(text.contains("\u{1B}[2mNULL\u{1B}[0m"))
  #expect(!(try rendered(cases[3], .table)).contains("\u{1B}"))
}

@Test func nullAndTheStringNullLookDifferent() throws {
  let text = try rendered(
    OutputCase(name: "nulls", body: #"[{"a": null}, {"a": "null"}, {"a": "NULL"}, {"a": ""}]"#),
    .table)
  #expect(text == "   a\n--------\n NULL\n null\n \"NULL\"\n \n(4 rows)\n")
  let csv = try rendered(
    OutputCase(name: "nulls", body: #"[{"a": null}, {"a": "null"}, {"a": ""}]"#), .csv)
  #expect(csv == "a\n\nnull\n\"\"\n")
}

@Test func csvLinesEndInLFUnlessCRLFIsAskedFor() throws {
  let body = OutputCase(name: "lines", body: #"[{"a": "x\ny", "b": 1}]"#)
  #expect(try rendered(body, .csv) == "a,b\n\"x\ny\",1\n")
  #expect(try rendered(body, .csv, style: RenderStyle(csvCRLF: true)) == "a,b\r\n\"x\ny\",1\r\n")
}

@Test func controlCharactersInDataCannotReachTheTerminal() throws {
  let text = try rendered(
    OutputCase(name: "escape", body: #"[{"a": "x\u001b[31my\tz"}]"#), .table)
  #expect(!text.contains("\u{1B}"))
  #expect(text.contains(#"x\u{1B}[31my\tz"#))
  #expect(CellText(.string("a\u{9B}31m")).text == #"a\u{9B}31m"#)
  #expect(CellText(.string("김민지 🐶")).text == "김민지 🐶")
}

@Test func ndjsonAndJsonRoundTripTheBody() throws {
  let body = fixture("user_info.response.json")
  let original = try JSONValue(parsing: body)
  let json = try rendered(OutputCase(name: "rt", body: body), .json)
  #expect(try JSONValue(parsing: json) == original)
  let lines = try rendered(OutputCase(name: "rt", body: body), .ndjson).split(separator: "\n")
  #expect(try lines.map { try JSONValue(parsing: String($0)) } == original.arrayValue)
}

@Test(arguments: cases)
func jsonIsThePrettyPrintedBodyWrittenRowByRow(_ item: OutputCase) throws {
  // The json format writes an array a row at a time; the text must be what one pretty print gives.
  let value = try JSONValue(parsing: item.body)
  #expect(try rendered(item, .json) == value.prettyPrinted() + "\n")
  let nested = try JSONValue(parsing: #"[[], {}, [1, [2, {"a": [3]}]], {"b": {"c": []}}, "x\ny"]"#)
  let writer = OutputWriter()
  ResultRenderer(format: .json).render(nested, to: writer)
  #expect(writer.captured == nested.prettyPrinted() + "\n")
}
