import Testing

@testable import SNMSupabase

/// The array forms the snm language compiler uses give the same parameters as the variadic ones.
@Suite struct ArrayFormTests {
  @Test func onConflictArrayMatchesVariadic() {
    #expect(SupabaseQueryParameter.onConflict(["a", "b c"]) == .onConflict("a", "b c"))
  }

  @Test func returningItemsMatchesVariadic() {
    let items: [SupabaseSelectItem] = ["id", .embed("user_info", join: .inner, "name")]
    #expect(
      SupabaseQueryParameter.returning(items: items)
        == .returning("id", .embed("user_info", join: .inner, "name")))
  }
}
