import Testing

@testable import SNMQuery

@Test func targetLinks() {
  #expect(Bool(true))
}
