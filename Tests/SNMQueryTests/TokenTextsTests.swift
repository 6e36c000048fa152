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
    for range in Self.everyRange(of: source, lengths: 0...18) {
      let made = texts.text(of: range, in: source)
      #expect(made == source.text(of: range), "\(range)")
      #expect(Array(made.utf8) == Array(source.text(of: range).utf8), "\(range)")
    }
  }

  /// Texts of 1 to 15 ASCII bytes are made in place, as the standard library makes them: on this
  /// platform its layout is the one `smallString` writes (else the slots would serve them), and
  /// each such String hashes, compares, lowercases and grows as the decoded one does.
  @Test func smallTextsAreStringsAsTheLibraryMakesThem() {
    #expect(TokenTexts.smallStringLayout)
    let source = Source(text: "Dog_Profile 0123456789abcdeX x $1 \"a\" user_info.name 12.5e3 ")
    let texts = TokenTexts()
    for range in Self.everyRange(of: source, lengths: 1...15) {
      let made = texts.text(of: range, in: source)
      let decoded = source.text(of: range)
      #expect(made == decoded && made.hashValue == decoded.hashValue)
      #expect(made.lowercased() == decoded.lowercased() && made.count == decoded.count)
      #expect(made + "_x" == decoded + "_x" && Set([made, decoded]).count == 1)
    }
  }

  /// Texts of 17 to 64 bytes are kept by a hash of their bytes: every range of those lengths,
  /// over repeated UUIDs, non-ASCII text and ranges that cut a character (decoded with repairs,
  /// so never handed out again), twice in two orders, against `Source.text(of:)`.
  @Test func longRangesReadAsTheSourceReadsThem() {
    let uuid = "0c8e5f7a-6b9d-4f1e-9a3b-2d4c6e8f0a1b"
    let text =
      "'\(uuid)' \"\(uuid)\" 산책 12 🐶 alice@example.com \(uuid)é\(uuid)\u{0}\(uuid) "
      + String(repeating: "x", count: 70) + " \(uuid)\n\(uuid.uppercased())"
    let source = Source(text: text)
    let texts = TokenTexts()
    for range in Self.everyRange(of: source, lengths: 15...66) {
      let made = texts.text(of: range, in: source)
      #expect(Array(made.utf8) == Array(source.text(of: range).utf8), "\(range)")
      // Asked again at once: the kept String, or a fresh decode when it was repaired.
      #expect(Array(texts.text(of: range, in: source).utf8) == Array(made.utf8), "\(range)")
    }
  }

  /// Every range of `source` whose length is in `lengths`, twice: from the start, then from the
  /// end, so that each slot is taken, kept and taken over many times.
  static func everyRange(of source: Source, lengths: ClosedRange<Int>) -> [SourceRange] {
    let count = source.bytes.count
    var ranges: [SourceRange] = []
    for fromTheEnd in [false, true] {
      for start in 0...count {
        for length in lengths where start + length <= count {
          ranges.append(
            fromTheEnd
              ? SourceRange(start: count - start - length, end: count - start)
              : SourceRange(start: start, end: start + length))
        }
      }
    }
    return ranges
  }

  /// A text moved to its hash's second slot by a newer one is handed out from there, and again
  /// after a third takes the second slot over: names read again and again between numbers read
  /// once (a script's shape), each against `Source.text(of:)`.
  @Test func textsMovedToTheirSecondSlotReadAsTheSourceReadsThem() {
    let words = (0..<600).map { "n\($0) dog_profile \($0 % 7)x owner_\($0 % 3)" }
    let source = Source(text: words.joined(separator: " "))
    let texts = TokenTexts()
    var ranges: [SourceRange] = []
    var start = 0
    for byte in source.bytes + [UInt8(ascii: " ")] {
      if byte == UInt8(ascii: " ") {
        ranges.append(SourceRange(start: ranges.last.map { $0.end + 1 } ?? 0, end: start))
      }
      start += 1
    }
    for range in ranges + ranges.reversed() {
      #expect(Array(texts.text(of: range, in: source).utf8) == Array(source.text(of: range).utf8))
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
