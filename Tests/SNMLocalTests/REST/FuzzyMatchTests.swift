import Testing

@testable import SNMLocal
@testable import SNMLocalREST

/// "Perhaps you meant ..." picks as PostgREST's Data.FuzzySet picks them.
@Suite struct FuzzyMatchTests {
  struct Case: Sendable, CustomTestStringConvertible {
    var word: String
    var candidates: [String]
    var minimum: Double
    var expected: String?
    var testDescription: String { "\(word) among \(candidates)" }
  }

  static let cases: [Case] = [
    // Error.hs's own examples
    Case(word: "film", candidates: ["films"], minimum: 0.33, expected: "films"),
    Case(
      word: "role", candidates: ["directors", "roles", "actors"], minimum: 0.33, expected: "roles"),
    Case(word: "noclosealternative", candidates: ["films"], minimum: 0.33, expected: nil),
    Case(word: "testt", candidates: ["test", "another"], minimum: 0.33, expected: "test"),
    Case(word: "other", candidates: ["test", "another"], minimum: 0.33, expected: "another"),
    // PostgREST 16's stricter minimum for tables and functions
    Case(word: "other", candidates: ["test", "another"], minimum: 0.75, expected: nil),
    Case(
      word: "(nam, pqaram, vall)", candidates: ["(name, param, val)", "(attr, id)"],
      minimum: 0.33, expected: "(name, param, val)"),
    Case(
      word: "(attrs, id)", candidates: ["(name, param, val)", "(attr, id)"], minimum: 0.33,
      expected: "(attr, id)"),
    Case(
      word: "(id)", candidates: ["(name, param, val)", "(attr, id)"], minimum: 0.33,
      expected: "(attr, id)"),
    Case(
      word: "(param, val)", candidates: ["(name, param, val)", "(attr, id)"], minimum: 0.33,
      expected: "(name, param, val)"),
    // a tie in edits goes to the name sharing more letter triples, not the first in order
    Case(word: "tasks", candidates: ["masks", "task"], minimum: 0.75, expected: "task"),
    Case(word: "parcels", candidates: ["barcels", "parcel"], minimum: 0.75, expected: "parcel"),
    // no shared letter pair: no match, however few the edits
    Case(word: "cab", candidates: ["hat"], minimum: 0.33, expected: nil),
    // equal but for case is the match
    Case(word: "Items", candidates: ["itemz", "items"], minimum: 0.75, expected: "items"),
  ]

  @Test(arguments: cases)
  func picksAsFuzzySet(_ testCase: Case) {
    #expect(
      FuzzyMatch.best(testCase.word, among: testCase.candidates, minimum: testCase.minimum)
        == testCase.expected)
  }

  /// PostgREST 13 hints a table over every table of the schema, with FuzzySet's 0.33 (the 0.75
  /// and the 500-table limit came in PostgREST 16).
  @Test(arguments: [499, 500])
  func tableHintsOverAnySchema(_ count: Int) {
    let tables = (0..<count).map {
      TableInfo(
        name: QualifiedName(schema: "public", name: "table\($0)"), kind: .table, columns: [],
        primaryKey: [], uniqueKeys: [])
    }
    let cache = SchemaCache(schemas: ["public"], tables: tables)
    var hint: String? = "no error"
    do {
      _ = try cache.table(QualifiedName(schema: "public", name: "table1x"))
    } catch {
      hint = error.hintText
    }
    #expect(hint == "Perhaps you meant the table 'public.table1'")
  }

  @Test func gramsAreLowercasedLettersBetweenDashes() {
    #expect(FuzzyMatch.grams("A_b", size: 2) == ["-a": 1, "ab": 1, "b-": 1])
    #expect(FuzzyMatch.grams("", size: 3) == [:])
  }
}
