import Testing

@testable import SNMCodegen

/// Names the database may hold, as the generated Swift spells them.
struct SwiftNameTests {
  struct Case: Sendable, CustomStringConvertible {
    var name: String
    var member: String
    var type: String
    var description: String { name }
  }

  static let cases: [Case] = [
    Case(name: "created_at", member: "createdAt", type: "CreatedAt"),
    Case(name: "default", member: "`default`", type: "Default"),
    Case(name: "public", member: "`public`", type: "Public"),
    Case(name: "self", member: "self_", type: "Self_"),
    Case(name: "Type", member: "type", type: "Type_"),
    Case(name: "2fa code", member: "_2faCode", type: "_2faCode"),
    Case(name: "URL", member: "url", type: "URL"),
    Case(name: "userID", member: "userID", type: "UserID"),
    Case(name: "a\"b\\c", member: "aBC", type: "ABC"),
    Case(name: "café", member: "café", type: "Café"),
    Case(name: "in progress", member: "inProgress", type: "InProgress"),
    Case(name: "---", member: "value", type: "Unnamed"),
    Case(name: "\u{301}x", member: "_\u{301}x", type: "_\u{301}x"),
    Case(name: "rtl\u{202E}override", member: "rtlOverride", type: "RtlOverride"),
    Case(name: "zero\u{200B}width", member: "zeroWidth", type: "ZeroWidth"),
    Case(name: "🐶", member: "🐶", type: "🐶"),
  ]

  @Test(arguments: cases)
  func namesCompile(_ example: Case) {
    #expect(SwiftName.member(example.name) == example.member)
    #expect(SwiftName.type(example.name) == example.type)
  }

  @Test func literalsEscapeQuotesBackslashesAndControls() {
    #expect(SwiftName.literal("say \"hi\" \\ now") == #""say \"hi\" \\ now""#)
    #expect(SwiftName.literal("a\nb\u{0}\u{1B}") == #""a\nb\0\u{1b}""#)
    #expect(SwiftName.literal("\u{202E}") == #""\u{202e}""#)
  }

  /// The terminal's list (VisibleTextLine.hides) plus the joiners: a Mongolian vowel separator
  /// and the interlinear annotation marks were written raw before, the joiners stay escaped in
  /// literals and comments, and a name keeps a zero-width joiner (an emoji sequence) only.
  @Test func hiddenCharactersAreTheTerminalsAndTheJoiners() {
    #expect(
      SwiftName.literal("a\u{180E}b\u{FFF9}c\u{FFFB}\u{2065}")
        == #""a\u{180e}b\u{fff9}c\u{fffb}\u{2065}""#)
    #expect(SwiftName.shown("a\u{200C}b\u{200D}c") == #"a\u{200c}b\u{200d}c"#)
    #expect(SwiftName.member("x\u{FFF9}y") == "xY")
    #expect(SwiftName.member("zw\u{200C}nj") == "zwNj")
    #expect(SwiftName.member("👩\u{200D}💻") == "👩\u{200D}💻")
  }

  /// Variation selectors follow the terminal's one rule (VisibleTextLine.forEachScalar): one
  /// right after a base it modifies stays; a run of them (a hidden byte each), one after an
  /// ASCII letter, a joiner or nothing is escaped in literals and comments and splits a name.
  @Test func aRunOfVariationSelectorsIsNeverRawInTheCode() {
    let smuggled = "ok\u{E0162}\u{E015D}\u{FE00}\u{FE01} \u{2764}\u{FE0F} \u{845B}\u{E0100}"
    let shown = #"ok\u{e0162}\u{e015d}\u{fe00}\u{fe01} "# + "\u{2764}\u{FE0F} \u{845B}\u{E0100}"
    #expect(SwiftName.literal(smuggled) == "\"" + shown + "\"")
    #expect(SwiftName.docComment(smuggled, indent: "  ") == "  /// " + shown + "\n")
    #expect(SwiftName.member("ok\u{FE0F}\u{FE0F}go") == "okGo")
    #expect(SwiftName.type("a\u{E0100}\u{E0101}b") == "AB")
    // The heart is no identifier: its selector alone would be an invisible name.
    #expect(SwiftName.member("\u{2764}\u{FE0F}") == "value")
    #expect(SwiftName.member("é\u{FE0F}\u{FE0F}") == "é")
    #expect(SwiftName.member("葛\u{E0100}") == "葛\u{E0100}")
  }

  /// A selector after a letter of another script or a digit changes nothing a reader sees:
  /// `café` U+FE0F would read as `café`. It splits a name (the two columns get two names) and
  /// is escaped in literals and comments; after an emoji or an ideograph it stays.
  @Test func aSelectorAfterALetterIsNoPartOfAName() {
    #expect(SwiftName.member("café\u{FE0F}") == "café")
    #expect(SwiftName.member("café\u{FE0F}bar") == "caféBar")
    #expect(SwiftName.member("a1\u{FE0F}b") == "a1B")
    #expect(SwiftName.member("\u{1F436}\u{FE0F}") == "\u{1F436}\u{FE0F}")
    #expect(SwiftName.member("\u{2122}\u{FE0F}") == "\u{2122}\u{FE0F}")
    #expect(SwiftName.member("\u{8279}\u{FE00}") == "\u{8279}\u{FE00}")
    #expect(SwiftName.literal("café\u{FE0F}") == #""café\u{fe0f}""#)
    #expect(SwiftName.docComment("α\u{FE0E}", indent: "") == #"/// α\u{fe0e}"# + "\n")
    var names = NameAllocator()
    #expect(names.claim(SwiftName.member("café")) != names.claim(SwiftName.member("café\u{FE0F}")))
  }

  /// A Hangul filler is a letter to Swift but shows as a blank: a name of one would be invisible.
  @Test func aHangulFillerIsNoPartOfAName() {
    #expect(SwiftName.member("\u{3164}") == "value")
    #expect(SwiftName.member("is\u{3164}admin") == "isAdmin")
    #expect(SwiftName.literal("\u{3164}\u{34F}") == #""\u{3164}\u{34f}""#)
  }

  @Test func collidingNamesGetNumbers() {
    var names = NameAllocator()
    #expect(names.claim("userId") == "userId")
    #expect(names.claim("userId") == "userId2")
    #expect(names.claim("userId") == "userId3")
  }
}
