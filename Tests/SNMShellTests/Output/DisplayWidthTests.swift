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

/// The ASCII test reads eight bytes at a time: a wide character anywhere, at any length (inside
/// a word, in the tail after the last whole word), is still found.
@Test func aWideCharacterIsFoundAtAnyPlace() {
  for length in 0..<20 {
    let ascii = String(repeating: "a", count: length)
    #expect(DisplayWidth.of(ascii) == length)
    #expect(DisplayWidth.of(ascii[...]) == length)
    for place in 0...length {
      var text = ascii
      text.insert("김", at: text.index(text.startIndex, offsetBy: place))
      #expect(DisplayWidth.of(text) == length + 2, "\(length) \(place)")
      #expect(DisplayWidth.of(text.dropFirst(0)) == length + 2)
    }
  }
}
