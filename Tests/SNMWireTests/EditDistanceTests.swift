import Testing

@testable import SNMWire

@Suite struct EditDistanceTests {
  @Test(arguments: [
    ("", "", false, 0), ("", "abc", false, 3), ("abc", "", false, 3), ("abc", "abc", false, 0),
    ("selec", "select", false, 1), ("kitten", "sitting", false, 3), ("form", "from", false, 2),
    ("form", "from", true, 1), ("ca", "abc", true, 3), ("lmit", "limit", true, 1),
    ("--fromat", "--format", false, 2), ("--fromat", "--format", true, 1),
  ])
  func counts(a: String, b: String, transpositions: Bool, expected: Int) {
    #expect(EditDistance.between(Array(a), Array(b), transpositions: transpositions) == expected)
    #expect(
      EditDistance.between(Array(a.utf8), Array(b.utf8), transpositions: transpositions)
        == expected)
  }
}
