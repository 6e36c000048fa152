import Testing

@testable import SNMQuery

/// The checker's set of bound names answers as a `Set<String>` of the same names would, through
/// its growth and for names that are equal as Strings but not byte for byte.
@Suite struct NameSetTests {
  @Test func answersAsASetOfStringsThroughGrowth() {
    var names = NameSet()
    var reference = Set<String>()
    var generator = SystemRandomNumberGenerator()
    let letters = Array("abcdefghijklmnopqrstuvwxyz_0123456789$")
    for round in 0..<2_000 {
      let length = Int.random(in: 1...20, using: &generator)
      let name = String((0..<length).map { _ in letters.randomElement(using: &generator)! })
      let inserted = names.insert(name)
      #expect(inserted == reference.insert(name).inserted, "round \(round): \(name)")
      #expect(names.count == reference.count)
      let probe = "dog\(round)"
      #expect(names.contains(probe) == reference.contains(probe))
    }
    for name in reference { #expect(names.contains(name)) }
    #expect(Set(names) == reference)
  }

  @Test func namesEqualAsStringsAreOneName() {
    // "é" as one scalar and as "e" + a combining accent; the Kelvin sign and "K".
    var names = NameSet(["caf\u{E9}", "\u{212A}"])
    #expect(names.contains("cafe\u{301}"))
    #expect(names.contains("K"))
    let accented = names.insert("cafe\u{301}")
    let kelvin = names.insert("K")
    #expect(!accented && !kelvin)
    #expect(names.count == 2)
    #expect(!names.contains("cafe"))
    let plain = names.insert("cafe")
    #expect(plain)
  }

  @Test func builtinsAreBoundAndCheckedByName() {
    let checker = Checker()
    for name in Checker.builtins {
      #expect(checker.isDefined(name))
      #expect(Checker.isBuiltin(name))
    }
    for name in ["en", "envv", "Env", "sessions", "las", "lasts", "dog"] {
      #expect(!Checker.isBuiltin(name))
    }
  }
}
