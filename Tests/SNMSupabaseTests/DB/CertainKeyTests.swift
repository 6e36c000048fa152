import Testing

@testable import SNMSupabase

/// The key each select item holds every row of PostgREST's answer to, or nil where the list does
/// not say it for certain (the check on answered columns lets those be).
@Suite struct CertainKeyTests {
  struct Case: Sendable, CustomTestStringConvertible {
    let item: SupabaseSelectItem
    let key: String?
    var testDescription: String { "\(item.wire) -> \(key ?? "nil")" }
  }

  static let cases: [Case] = [
    Case(item: "id", key: "id"),
    Case(item: .column("name", as: "n"), key: "n"),
    Case(item: .column("age", cast: "text"), key: "age"),
    Case(item: "data->a", key: "a"),
    Case(item: "data->>a", key: "a"),
    Case(item: "data->0", key: nil),
    Case(item: "data->a->0", key: nil),
    Case(item: .column("data->0", as: "first"), key: "first"),
    Case(item: .count(), key: "count"),
    Case(item: .column("amount", aggregate: "sum", cast: "text"), key: "sum"),
    Case(item: .embed("user_info", as: "owner", "name"), key: "owner"),
    Case(item: .embed("user_info", join: .inner, "name"), key: "user_info"),
    Case(item: .embed("user_info", .all), key: "user_info"),
    Case(item: .embed("user_info", items: []), key: nil),
    Case(item: .embed("user_info", .embed("dogs", items: [])), key: nil),
    Case(item: .embed("user_info", spread: true, "name"), key: nil),
    Case(item: .all, key: nil),
    Case(item: .raw("id"), key: nil),
    Case(item: "messages.id", key: nil),
    Case(item: .column("id", as: String(repeating: "a", count: 64)), key: nil),
    Case(
      item: .column("id", as: String(repeating: "a", count: 63)),
      key: String(repeating: "a", count: 63)),
  ]

  @Test(arguments: cases) func certainKey(_ test: Case) {
    #expect(test.item.certainKey == test.key)
  }

  /// The header of an empty result names a JSON path ending in an index as PostgREST does: by its
  /// last key, else the column (it said `0`).
  @Test func anIndexEndingPathIsNamedByItsLastKey() {
    #expect(SupabaseSelectItem("data->a->0").resultKey == "a")
    #expect(SupabaseSelectItem("data->0").resultKey == "data")
  }
}
