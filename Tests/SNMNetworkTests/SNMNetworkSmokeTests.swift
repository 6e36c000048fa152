import Testing
@testable import SNMNetwork

@Test func targetLinks() {
  #expect(Bool(true))
}
