import Testing
@testable import SNMSupabase

@Test func targetLinks() {
  #expect(Bool(true))
}
