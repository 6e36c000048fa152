import Foundation
import SNMNetwork
import Testing

@testable import SNMShell
@testable import SNMWire

/// A body whose csv is rendered while it arrives and after it came, which must agree.
struct ArrivingCase: Sendable, CustomTestStringConvertible {
  let name: String
  let body: [UInt8]
  /// Whether rows must be taken on arrival: an array of objects with one set of keys, long
  /// enough after its first `,` for a check to run there (a check runs once the new bytes are
  /// as many as it reads again, so a body of two small rows may come whole first).
  let streams: Bool
  var testDescription: String { name }

  init(_ name: String, _ body: String, streams: Bool = true) {
    self.name = name
    self.body = Array(body.utf8)
    self.streams = streams
  }
}

/// Rows as PostgREST sends them, with every kind of value and every character csv quotes.
private func rowTexts(_ count: Int) -> [String] {
  (0..<count).map { index in
    #"{"id":\#(index),"name":"dog \"\#(index)\", 두부 🐕","bio":\#(index % 3 == 0 ? "null" : "\"\"")"#
      + #","weight":\#(index % 2 == 0 ? "12.50" : "-1e5"),"public":\#(index % 2 == 0)"#
      + #","traits":{"vet":{"name":"Seoul, \"Vet\"","visits":[2023,2024]},"tricks":["sit"]}"#
      + #","note":"line\r\nbreak\ttab\u001b[31m\u0085end"}"#
  }
}

private func rows(_ count: Int, separator: String = ",") -> String {
  "[" + rowTexts(count).joined(separator: separator) + "]"
}

private let huge = String(repeating: "a\\\"b,", count: 60_000)

private let arrivingCases: [ArrivingCase] = [
  .init("PostgREST rows", rows(40)),
  .init("rows spread over lines", " \n[ " + rows(12, separator: " ,\n\t ").dropFirst() + " \n"),
  .init(
    "null, the empty string and their names",
    #"[{"a":null,"b":"","c":"NULL","d":"null"},{"a":"","b":null,"c":"","d":" "}]"#,
    streams: false),
  .init(
    "nested values with escapes",
    #"[{"j":{"s":"\u0000\n\"é\u00e9","a":[[],{},[{"k":1.50}]]}},{"j":[null,true,"\\"]}]"#,
    streams: false),
  .init(
    "keys csv must quote",
    #"[{"a,b":1,"q\"t":2,"line\nkey":3,"esc\u001bkey":4},"#
      + #"{"a,b":5,"q\"t":6,"line\nkey":7,"esc\u001bkey":8}]"#),
  .init(
    "numbers as written",
    #"[{"n":1E5},{"n":-0.0},{"n":12.500},{"n":123456789012345678901234567890}]"#),
  .init(
    "one huge row",
    #"[{"id":1,"text":""# + huge + #""}"#
      + String(repeating: #",{"id":2,"text":"small, \"quoted\""}"#, count: 12_000) + "]"),
  .init(
    "a huge nested value",
    #"[{"id":1,"n":["# + Array(repeating: #""x,\"""#, count: 20_000).joined(separator: ",") + "]}"
      + String(repeating: #",{"id":2,"n":[]}"#, count: 12_000) + "]"),
  .init("rows whose keys differ", #"[{"a":1,"b":2},{"b":3,"a":4},{"a":5,"b":6}]"#, streams: false),
  .init("a row with fewer keys", #"[{"a":1,"b":2},{"a":3},{"a":5,"b":6}]"#, streams: false),
  .init("a row that is not an object", #"[{"a":1},{"a":2},7,{"a":3}]"#, streams: false),
  .init("scalars", #"[1,"two",null,[3]]"#, streams: false),
  .init("empty objects", "[{},{},{}]", streams: false),
  .init("an empty array", "[]", streams: false),
  .init("an empty array with spaces", " [ \n ] ", streams: false),
  .init("one row", #"[{"id":1,"name":"Kim"}]"#, streams: false),
  .init("an object", #"{"id":1,"name":"Kim"}"#, streams: false),
]

/// The consumer `renderer` makes, fed as the plain transport feeds it: `body` arriving `step`
/// bytes at a time, checked after each arrival.
private func arrive(
  _ body: [UInt8], step: Int, for renderer: ResultRenderer
) -> (any ArrivingElementsConsumer)? {
  guard let make = renderer.arrivingRows?.make else { return nil }
  var checker = JSONStreamValidator(runningEvery: 1)
  var consumer: (any ArrivingElementsConsumer)?
  var received = 0
  while received < body.count {
    received = min(body.count, received + step)
    body[..<received].withUnsafeBufferPointer { bytes in
      checker.received(bytes)
      guard let (count, end) = checker.checkedElements else { return }
      if consumer == nil { consumer = make() }
      consumer?.take(UnsafeBufferPointer(rebasing: bytes[..<end]), elements: count)
    }
  }
  return consumer
}

private func csv(
  _ body: [UInt8], terminal: Bool = false, arrived: (any ArrivingElementsConsumer)? = nil
) throws -> String {
  let writer = OutputWriter()
  let document = try JSONDocument(validating: Data(body))
  let finished = try ResultRenderer(format: .csv, style: RenderStyle(terminal: terminal)).render(
    document, arrived: arrived, to: writer)
  #expect(finished)
  return writer.captured
}

@Suite struct ArrivingRowsTests {
  @Test(arguments: arrivingCases)
  func rowsRenderedAsTheyArriveAreTheWholeBodysCSV(_ item: ArrivingCase) throws {
    for terminal in [false, true] {
      let renderer = ResultRenderer(format: .csv, style: RenderStyle(terminal: terminal))
      let whole = try csv(item.body, terminal: terminal)
      let steps = item.body.count > 100_000 ? [4096, 65536] : [1, 2, 7, 64, 4096]
      for step in steps + [item.body.count] {
        let arrived = arrive(item.body, step: step, for: renderer)
        let taken = (arrived as? ArrivingRows)?.position?.count ?? 0
        if item.streams && step < item.body.count / 2 {
          #expect(taken > 0, "\(item.name): no row was taken on arrival, step \(step)")
        }
        #expect(
          try csv(item.body, terminal: terminal, arrived: arrived) == whole,
          "\(item.name), step \(step), terminal \(terminal)")
        // Rendered for one destination, the rows are not used for the other.
        #expect(
          try csv(item.body, terminal: !terminal, arrived: arrived)
            == csv(item.body, terminal: !terminal),
          "\(item.name), step \(step), rendered for terminal \(terminal)")
      }
    }
  }

  /// What is held is a header and whole records of checked rows only, however the body is cut.
  @Test func onlyCheckedRowsAreHeldAndNeverAPartOfOne() throws {
    let texts = rowTexts(30)
    let body = Array(rows(30).utf8)
    let renderer = ResultRenderer(format: .csv)
    for cut in stride(from: 1, to: body.count, by: 97) {
      var damaged = Array(body[..<cut])
      damaged.append(contentsOf: Array("\u{1}garbage".utf8))
      guard let arrived = arrive(damaged, step: 5, for: renderer) as? ArrivingRows else {
        continue
      }
      let taken = try #require(arrived.position).count
      // Each row taken came whole before the cut, with the `,` after it.
      #expect(1 + texts[..<taken].map { $0.utf8.count + 1 }.reduce(0, +) <= cut, "cut \(cut)")
      // The header, then one record per row taken: the csv of those rows alone.
      let writer = OutputWriter()
      writer.write(heldBy: arrived.held)
      #expect(writer.captured == (try csv(Array(rows(taken).utf8))), "cut \(cut)")
    }
  }

  /// Past its limit it takes no more rows; those after them are rendered after the last byte.
  @Test func itHoldsNoMoreThanItsLimit() throws {
    let body = Array(rows(3000).utf8)
    var checker = JSONStreamValidator(runningEvery: 1)
    var arrived = ArrivingRows(CSVRenderer(), mostHeld: 20_000)
    for received in stride(from: 512, through: body.count, by: 512) {
      body[..<received].withUnsafeBufferPointer { bytes in
        checker.received(bytes)
        guard let (count, end) = checker.checkedElements else { return }
        arrived.take(UnsafeBufferPointer(rebasing: bytes[..<end]), elements: count)
      }
    }
    let taken = try #require(arrived.position).count
    #expect(taken > 0 && taken < 1000)
    #expect(arrived.held.heldBytes >= 20_000 && arrived.held.heldBytes < 20_000 + 4096)
    #expect(try csv(body, arrived: arrived) == csv(body))
  }

  @Test func onlyCSVTakesRowsOnArrival() {
    for format in OutputFormat.allCases {
      #expect((ResultRenderer(format: format).arrivingRows != nil) == (format == .csv))
    }
  }

  @Test func csvJSONAndNDJSONMaySpillAndCSVHoldsLessThen() throws {
    let spill = BodySpill(memoryBytes: 2 << 20, directory: "/tmp")
    for format in OutputFormat.allCases {
      let arriving = ResultRenderer(format: format).arrivingRows(spillingPast: spill)
      let rowsFormat = format == .csv || format == .json || format == .ndjson
      #expect((arriving?.spill == spill) == rowsFormat, "\(format)")
      #expect((arriving?.make != nil) == (format == .csv), "\(format)")
    }
    let held = try #require(
      ResultRenderer(format: .csv).arrivingRows(spillingPast: spill)?.make?() as? ArrivingRows)
    #expect(held.mostHeld == 1 << 20)
    let unspilled = try #require(
      ResultRenderer(format: .csv).arrivingRows?.make?() as? ArrivingRows)
    #expect(unspilled.mostHeld == ArrivingRows.mostHeld)
  }
}
