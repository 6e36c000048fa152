import Testing
@testable import SNMShell

@Test func targetLinks() {
  #expect(Bool(true))
}
