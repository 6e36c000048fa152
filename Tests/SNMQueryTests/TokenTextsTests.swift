import Testing

@testable import SNMQuery

/// `TokenTexts` hands out the String `Source.text(of:)` makes for every range, whichever texts
/// took its slots before.
@Suite struct TokenTextsTests {
  @Test func everyRangeReadsAsTheSourceReadsIt() {
    let text =
      "dog_profile id name owner user_info a\u{0}a a \u{0} 0123456789abcdef 0123456789abcdefg "
      + "é산책 🐶 x\u{80} 'Jindo' \"friendly\" 37.51 126.9 ABCDEFGHabcdefgh ABCDEFGHabcdefgH "
      + "\u{7f}\r\n\t$x ${a} \u{FFFD}"
    let source = Source(text: text)
    let texts = TokenTexts()
    let count = source.bytes.count
    // Every range twice, in two orders: each slot is taken, kept and taken over many times.
    for round in 0..<2 {
      for start in 0...count {
        for length in 0...18 where start + length <= count {
          let range =
            round == 0
            ? SourceRange(start: start, end: start + length)
            : SourceRange(start: count - start - length, end: count - start)
          guard range.start >= 0 else { continue }
          let made = texts.text(of: range, in: source)
          #expect(made == source.text(of: range), "\(range)")
          #expect(Array(made.utf8) == Array(source.text(of: range).utf8), "\(range)")
        }
      }
    }
  }

  @Test func rangesOutsideTheSourceAreClampedAsBefore() {
    let source = Source(text: "from t")
    let texts = TokenTexts()
    for range in [
      SourceRange(start: -2, end: 3), SourceRange(start: 4, end: 40), SourceRange(start: 5, end: 2),
      SourceRange(start: 9, end: 12),
    ] {
      #expect(texts.text(of: range, in: source) == source.text(of: range))
    }
  }

  @Test func textsThatDifferOnlyByATrailingZeroByteStayApart() {
    let source = Source(text: "a\u{0}\u{0}a\u{0}a")
    let texts = TokenTexts()
    let one = SourceRange(start: 3, end: 4)
    let two = SourceRange(start: 3, end: 5)
    let three = SourceRange(start: 0, end: 3)
    for range in [one, two, three, one, two, three] {
      #expect(texts.text(of: range, in: source) == source.text(of: range))
    }
  }
}
