import Foundation
import SNMNetwork
import SNMWire
import Testing

/// Files under Tests/SNMQueryTests/Fixtures, read from the source tree (golden files go through
/// SNMTestSupport's `expectSnapshot`).
enum Fixtures {
  static let directory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures")

  static func url(_ name: String) -> URL { directory.appendingPathComponent(name) }

  static func text(_ name: String) -> String? {
    try? String(contentsOf: url(name), encoding: .utf8)
  }
}

/// One row of spec §2, with the request it must produce (Fixtures/spec-examples.json).
struct SpecExample: Sendable, CustomTestStringConvertible {
  var statement: String
  var method: String
  var path: String
  var query: [[String]]
  var headers: [(String, String)]
  var body: JSONValue

  var testDescription: String { statement }

  static let all: [SpecExample] = {
    guard let text = Fixtures.text("spec-examples.json"),
      let rows = (try? JSONValue(parsing: text))?.arrayValue
    else { return [] }
    return rows.map { row in
      SpecExample(
        statement: row["statement"]?.stringValue ?? "",
        method: row["method"]?.stringValue ?? "",
        path: row["path"]?.stringValue ?? "",
        query: (row["query"]?.arrayValue ?? []).map { pair in
          (pair.arrayValue ?? []).map { $0.stringValue ?? "" }
        },
        headers: (row["headers"]?.objectValue.map { object in
          zip(object.keys, object.values).map { ($0, $1.stringValue ?? "") }
        }) ?? [],
        body: row["body"] ?? .null)
    }
  }()
}
