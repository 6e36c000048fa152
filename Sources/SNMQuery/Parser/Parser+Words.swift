/// Words matched as words (any case), not keywords: the statements' own words (`storage`'s,
/// `mfa`'s, `set`'s choices) stay free as names everywhere else.
extension Parser {
  /// Whether `token` is the word `word` (any case).
  func isWord(_ token: Token, _ word: String) -> Bool {
    token.kind == .word && source.spells(token.range, lowercased: word)
  }

  /// Consumes the word `word` (any case) if it is next; recorded for completion.
  mutating func eatWord(_ word: String) -> Bool {
    record(.keyword(word))
    guard current.kind == .word, text(current).lowercased() == word else { return false }
    advance()
    return true
  }

  mutating func expectWord(_ word: String, after: String, help: String? = nil) throws(ParseFailure)
  {
    guard eatWord(word) else { throw expectedFailure("'\(word)'", after: after, help: help) }
  }

  /// One word of `choices` (any letter case), returned lowercased.
  mutating func parseChoice(_ choices: [String], after: @autoclosure () -> String)
    throws(ParseFailure) -> String
  {
    recordKeywords(choices)
    let listed = choices.dropLast().joined(separator: ", ") + " or " + (choices.last ?? "")
    guard current.kind == .word else { throw expectedFailure(listed, after: after()) }
    let word = text(current).lowercased()
    guard choices.contains(word) else {
      throw failure(
        .expected(listed, after: after(), found: "'\(text(current))'"), at: current.range,
        help: DidYouMean.help(word, among: choices))
    }
    advance()
    return word
  }
}
