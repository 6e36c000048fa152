import Testing
@testable import SNMLocal

@Test func targetLinks() {
  #expect(Bool(true))
}
