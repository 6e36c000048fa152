import Foundation
import SNMWire
import Testing

@testable import SNMShell

/// A small answer's table is read once with its cells kept; a large one twice, one row at a time.
/// Both must print the same bytes, whatever the rows hold and wherever the table goes.
struct KeptRowsCase: Sendable, CustomTestStringConvertible {
  let name: String
  let body: String
  var testDescription: String { name }
}

private let longText = String(repeating: "long words wrap here ", count: 12)

private let keptRowsCases = [
  KeptRowsCase(
    name: "a PostgREST row",
    body: #"[{"id": 30777, "owner": "2eaf7b9c-8dbf-4b3a-9c5d-4f6e8a0b2c3d", "name": "dog 30773","#
      + #" "breed": "Poodle", "age": 8, "weight_kg": 27.73, "birth_date": "2017-02-12","#
      + #" "is_public": false, "traits": {"vet": {"name": "Seoul Vet", "visits": [2023, 2024]}},"#
      + #" "created_at": "2026-12-02T19:15:01.796115+00:00"}]"#),
  KeptRowsCase(
    name: "nulls, and strings that read as NULL",
    body:
      #"[{"a": null, "b": "NULL", "c": "null", "d": ""}, {"a": 1, "b": null, "c": "", "d": null}]"#),
  KeptRowsCase(
    name: "wide characters and emoji",
    body:
      #"[{"이름": "김민지", "dog": "🐶 Bori", "mix": "두부 10 🐕"}, {"이름": "Lee", "dog": "🐕‍🦺", "mix": "é"}]"#),
  KeptRowsCase(
    name: "control characters in values and keys",
    body: #"[{"t\u001bx": "a\tb\u001b[31mred", "n": "line\nbreak\r", "c1": "a\u0085b\u009b"}]"#),
  KeptRowsCase(
    name: "nested JSON",
    body: #"[{"j": {"k": ["\n", "é", null, {"x": "NULL"}]}, "a": [1, [2, [3]]], "e": {}}]"#),
  KeptRowsCase(
    name: "long values",
    body: #"[{"id": 1, "text": "\#(longText)", "uuid": "0c8e5f7a-6b9d-4f1e-9a3b-2d4c6e8f0a1b"},"#
      + #" {"id": 22, "text": "short", "uuid": null}]"#),
  KeptRowsCase(
    name: "numbers that align",
    body:
      #"[{"n": 1, "m": "x"}, {"n": 12345, "m": null}, {"n": -0.5, "m": "yy"}, {"n": null, "m": "z"}]"#
  ),
  KeptRowsCase(name: "empty rows", body: "[{}, {}]"),
  KeptRowsCase(
    name: "headers wider than their cells",
    body: #"[{"a_rather_long_column_name": 1, "another_long_header_name": "x", "z": true}]"#),
]

/// Where a table goes: a pipe, a terminal (narrow, coloured, `set expanded auto`), `set null`.
private let keptRowsStyles: [(name: String, style: RenderStyle)] = [
  ("pipe", RenderStyle()),
  ("terminal", RenderStyle(width: 100, colour: true, terminal: true)),
  ("narrow terminal", RenderStyle(width: 30, colour: false, terminal: true)),
  ("narrow, expanded auto", RenderStyle(width: 24, terminal: true, autoExpand: true)),
  ("set null", RenderStyle(nullText: "∅")),
  ("set null to a digit", RenderStyle(width: 20, nullText: "0")),
]

@Test(arguments: keptRowsCases)
func keptRowsPrintTheTableOfTwoPasses(_ item: KeptRowsCase) throws {
  for (name, style) in keptRowsStyles {
    func printed(keptBodyBytes: Int) throws -> String {
      let document = try JSONDocument(validating: Data(item.body.utf8))
      #expect(document.shape.uniformObjects)
      let writer = OutputWriter()
      let renderer = TableRenderer(style: style, total: 7, keptBodyBytes: keptBodyBytes)
      #expect(try renderer.render(uniformRows: document, to: writer))
      return writer.captured
    }
    let kept = try printed(keptBodyBytes: TableRenderer.largestKeptBody)
    let twoPasses = try printed(keptBodyBytes: 0)
    #expect(kept == twoPasses, "\(item.name), \(name)")
    #expect(!kept.isEmpty)
  }
}

@Test func onlyAnAnswerPastTheLimitIsReadTwice() throws {
  // A body one byte past the limit takes the two passes and still prints every row.
  let row = #"{"id":1,"name":"dog"}"#
  var rows = [row]
  while rows.count * (row.utf8.count + 1) <= TableRenderer.largestKeptBody { rows.append(row) }
  let body = Data(("[" + rows.joined(separator: ",") + "]").utf8)
  #expect(body.count > TableRenderer.largestKeptBody)
  let writer = OutputWriter()
  #expect(
    try TableRenderer(style: RenderStyle()).render(
      uniformRows: try JSONDocument(validating: body), to: writer))
  #expect(writer.captured.hasSuffix("(\(rows.count) rows)\n"))
}

@Test func theFirstRowsKeysReadWhileCheckingAreTheParsersKeys() throws {
  let bodies = [
    #"[{"id": 1, "name": "a"}, {"id": 2, "name": "b"}]"#,
    #"[{"이름": 1, "🐶": 2, "é": 3}]"#,
    #"[{"a\"b": 1, "c\\d": 2, "\u00e9": 3}]"#,  // escapes: read by the parser instead
    #"[{"a": 1, "a": 2}]"#,
    #"[{}]"#,
    #"[{"a": 1}, {"b": 2}]"#,  // not uniform: the first row's keys still
    #"[1, {"a": 1}]"#,
    #"{"a": 1, "b": [1]}"#,
    "[]",
  ]
  for body in bodies {
    let parsed = try JSONValue(parsing: body)
    let expected =
      parsed.objectValue?.keys ?? parsed.arrayValue?.first?.objectValue?.keys
    #expect(try JSONDocument(validating: Data(body.utf8)).firstRowKeys == expected, "\(body)")
  }
}
