import Testing

@testable import SNMQuery
@testable import SNMShell

struct WidthCase: Sendable, CustomStringConvertible {
  let text: String
  let width: Int
  var description: String { text }
}

@Test(arguments: [
  WidthCase(text: "Bori", width: 4),
  WidthCase(text: "김민지", width: 6),
  WidthCase(text: "🐶", width: 2),
  WidthCase(text: "🐶 Bori", width: 7),
  WidthCase(text: "e\u{301}", width: 1),
  WidthCase(text: "👩‍👩‍👧", width: 2),
  WidthCase(text: "🇰🇷", width: 2),
  WidthCase(text: "❤️", width: 2),
  WidthCase(text: "ｆｕｌｌ", width: 8),
  WidthCase(text: "", width: 0),
])
func displayWidthCountsTerminalColumns(_ item: WidthCase) {
  #expect(DisplayWidth.of(item.text) == item.width)
}

@Test func truncationEndsInAnEllipsisWithinTheWidth() {
  #expect(DisplayWidth.truncate("abcdef", to: 4) == "abc…")
  #expect(DisplayWidth.truncate("김민지", to: 4) == "김…")
  #expect(DisplayWidth.truncate("abc", to: 3) == "abc")
  #expect(DisplayWidth.of(DisplayWidth.truncate("🐶🐶🐶", to: 5)) <= 5)
}
