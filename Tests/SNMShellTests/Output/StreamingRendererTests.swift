import Foundation
import SNMNetwork
import SNMTestSupport
import Testing

@testable import SNMShell
@testable import SNMWire

/// A body printed from its bytes (a row at a time) and from its parsed tree.
struct StreamCase: Sendable, CustomTestStringConvertible {
  let name: String
  let body: String
  var testDescription: String { name }
}

private let streamCases = [
  StreamCase(
    name: "PostgREST rows",
    body: #"[{"id": 1, "name": "Bori", "age": 3, "owner": {"name": "김민지"}, "tags": ["a"]},"#
      + #" {"id": 2, "name": "Lee, \"Min\"", "age": null, "owner": null, "tags": []}]"#),
  StreamCase(
    name: "rows with different keys",
    body: #"[{"a": 1}, {"b": "x", "a": 2}, {"c": null}]"#),
  StreamCase(name: "scalars", body: #"[1, 2.50, "three", null, true]"#),
  StreamCase(name: "mixed", body: #"[{"a": 1}, 2, [3]]"#),
  StreamCase(name: "empty objects", body: "[{}, {}]"),
  StreamCase(name: "empty array", body: " [ ] "),
  StreamCase(name: "one object", body: #"{"id": 7, "name": "🐶 Choco"}"#),
  StreamCase(name: "scalar", body: "42"),
  StreamCase(
    name: "brackets, escapes and wide text",
    body: #"[{"s": "]}[{", "t": "a\tb\u001b", "k": "김치 🐶"}, {"s": "\"", "t": "", "k": "NULL"}]"#),
  StreamCase(
    name: "numbers that align",
    body: #"[{"n": 1, "m": "x"}, {"n": 12345, "m": null}, {"n": -0.5, "m": "yy"}]"#),
]

private func render(_ document: JSONDocument, _ format: OutputFormat, width: Int? = nil) throws
  -> (text: String, finished: Bool)
{
  let writer = OutputWriter()
  let finished = try ResultRenderer(format: format, style: RenderStyle(width: width)).render(
    document, defaultColumn: "sum", total: nil, to: writer)
  return (writer.captured, finished)
}

@Test(arguments: streamCases)
func printingFromTheBytesMatchesPrintingTheTree(_ item: StreamCase) throws {
  let tree = try JSONValue(parsing: item.body)
  for format in OutputFormat.allCases {
    for width in [nil, 30] {
      let document = try JSONDocument(validating: Data(item.body.utf8))
      let streamed = try render(document, format, width: width)
      let writer = OutputWriter()
      ResultRenderer(format: format, style: RenderStyle(width: width)).render(
        tree, defaultColumn: "sum", to: writer)
      #expect(streamed.finished)
      #expect(streamed.text == writer.captured, "\(item.name) as \(format.rawValue)")
    }
  }
}

@Test func rowsThatAreOnlyPrintedAreNeverParsedWhole() throws {
  let body = Data(streamCases[0].body.utf8)
  for format in [OutputFormat.json, .ndjson, .csv, .table] {
    let document = try JSONDocument(validating: body)
    _ = try render(document, format)
    #expect(!document.isParsed, "\(format.rawValue) built the tree")
  }
  // Rows whose keys differ fall back to the tree for csv and table (the columns are the union).
  let differing = try JSONDocument(validating: Data(streamCases[1].body.utf8))
  #expect(try render(differing, .csv).text == "a,b,c\n1,,\n2,x,\n,,\n")
  #expect(differing.isParsed)
}

@Test func theGoldenFilesHoldForBodiesPrintedFromBytes() throws {
  let body = #"[{"id": 1, "name": "Bori", "owner": {"name": "김민지", "age": 5}}]"#
  for format in OutputFormat.allCases {
    let document = try JSONDocument(validating: Data(body.utf8))
    expectSnapshot(try render(document, format).text, named: "output/one_row.\(format.rawValue)")
  }
}

@Test func cancellingStopsPrintingHalfWay() async throws {
  let rows = (0..<5000).map { #"{"id":\#($0),"name":"dog \#($0)"}"# }
  let body = Data(("[" + rows.joined(separator: ",") + "]").utf8)
  for format in [OutputFormat.json, .ndjson, .csv, .table] {
    let document = try JSONDocument(validating: body)
    let (finished, text) = await Task { () -> (Bool, String) in
      withUnsafeCurrentTask { $0?.cancel() }
      let writer = OutputWriter()
      let finished =
        (try? ResultRenderer(format: format).render(document, to: writer)) ?? true
      return (finished, writer.captured)
    }.value
    #expect(!finished, "\(format.rawValue) did not stop")
    #expect(!text.contains("dog 4999"), "\(format.rawValue) printed every row")
  }
}

@Test func cellsFromFieldTextAreTheCellsOfTheValues() throws {
  let body =
    #"[{"a": null, "b": "NULL", "c": "null", "d": "", "e": "x\u001b[31my\tz", "f": "김민지 🐶","#
    + #" "g": -1.50, "h": true, "i": {"k": ["\n", "é"]}, "j": [1, {"x": "NULL"}], "k": "a\u0085b"}]"#
  let row = try #require(try JSONValue(parsing: body)[0]?.objectValue)
  var fromText: [CellText] = []
  var widths: [Int] = []
  try JSONDocument(validating: Data(body.utf8)).withElements { elements in
    _ = try elements.nextRow { kind, text in
      fromText.append(CellText(kind, text))
      widths.append(CellText.width(kind, text))
    }
  }
  let fromValues = row.values.map { CellText($0) }
  #expect(fromText.map(\.text) == fromValues.map(\.text))
  #expect(fromText.map(\.width) == fromValues.map(\.width))
  #expect(widths == fromValues.map(\.width))
  #expect(fromText.map(\.isNull) == fromValues.map(\.isNull))
  #expect(fromText.map(\.isNumber) == fromValues.map(\.isNumber))
}

/// Rows the check on arrival wrote as they came (``ArrivingLines``, json's indented layout and
/// ndjson's lines), printed in their place, to a writer and to one that holds its text: the same
/// bytes as the answer printed from its bytes alone, held text small or past an output chunk.
@Test func rowsWrittenAsTheyCamePrintAsTheAnswerDoes() throws {
  for count in [20, 1500] {
    let rows = (0..<count).map {
      #"{"id":\#($0),"name":"dog \#($0) 🐶","t":{"a":[1, 2],"e":{},"f":[]},"n":null}"#
    }
    let bytes = Array(("[" + rows.joined(separator: ", ") + "]").utf8)
    for format in [OutputFormat.json, .ndjson] {
      for spooled in [false, true] {
        var checker = JSONStreamValidator(runningEvery: 1)
        // Spooled: past 4 KiB held, the text is set aside in pieces and printed back from them.
        let lines = ArrivingLines(
          most: spooled ? 4096 : 1 << 20, layout: format == .json ? .indented : .lines)
        let spool = MemorySpool()
        if spooled { lines.spool = spool }
        checker.lines = lines
        let shape = try #require(
          bytes.withUnsafeBufferPointer { buffer in
            checker.received(UnsafeBufferPointer(rebasing: buffer[..<(buffer.count / 2)]))
            return checker.finish(buffer)
          })
        let start = try #require(lines.start)
        let end = try #require(lines.end)
        #expect(start.count >= 1 && end.count > start.count, "\(count) as \(format.rawValue)")
        let alone = OutputWriter()
        try ResultRenderer(format: format).render(
          JSONDocument(validating: Data(bytes)), to: alone)
        for holding in [false, true] {
          let writer = holding ? OutputWriter.holding() : OutputWriter()
          try ResultRenderer(format: format).render(
            JSONDocument(checked: Data(bytes), shape: shape), arrived: lines, to: writer)
          let shown = holding ? OutputWriter() : writer
          if holding { shown.write(heldBy: writer) }
          #expect(
            shown.captured == alone.captured,
            "\(count) as \(format.rawValue), holding \(holding), spooled \(spooled)")
        }
        #expect(spooled || spool.pieces.isEmpty)
        #expect(!spooled || count == 20 || spool.pieces.count > 10, "\(format.rawValue)")
      }
    }
  }
}

/// Ctrl-C while the text set aside is printed back stops it at a piece's end, a row's end: what
/// was printed is the start of the whole answer, ending with a row.
@Test func cancellingWhileTheSpooledRowsPrintStopsAtARowsEnd() async throws {
  let rows = (0..<3000).map { #"{"id":\#($0),"name":"dog \#($0)"}"# }
  let bytes = Array(("[" + rows.joined(separator: ", ") + "]").utf8)
  for format in [OutputFormat.json, .ndjson] {
    let alone = OutputWriter()
    try ResultRenderer(format: format).render(JSONDocument(validating: Data(bytes)), to: alone)
    var checker = JSONStreamValidator(runningEvery: 1)
    let lines = ArrivingLines(most: 4096, layout: format == .json ? .indented : .lines)
    let spool = MemorySpool()
    lines.spool = spool
    checker.lines = lines
    let shape = try #require(
      bytes.withUnsafeBufferPointer { buffer in
        checker.received(UnsafeBufferPointer(rebasing: buffer[..<(buffer.count / 2)]))
        return checker.finish(buffer)
      })
    #expect(spool.pieces.count > 2)
    let (finished, text) = await Task { () -> (Bool, String) in
      withUnsafeCurrentTask { $0?.cancel() }
      let writer = OutputWriter()
      let finished =
        (try? ResultRenderer(format: format).render(
          JSONDocument(checked: Data(bytes), shape: shape), arrived: lines, to: writer)) ?? true
      return (finished, writer.captured)
    }.value
    #expect(!finished, "\(format.rawValue) did not stop")
    #expect(text.count < alone.captured.count && alone.captured.hasPrefix(text))
    #expect(text.hasSuffix(format == .json ? "}" : "}\n"), "\(format.rawValue): \(text.suffix(20))")
  }
}
