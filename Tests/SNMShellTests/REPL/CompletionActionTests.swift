import Testing

@testable import SNMShell

@Test func oneCandidateReplacesTheWordAndAddsASpace() {
  #expect(
    CompletionAction(CompletionResult(word: "us", candidates: ["user_info"]))
      == .replace("user_info "))
  #expect(
    CompletionAction(CompletionResult(word: "FR", candidates: ["from"])) == .replace("from "))
}

@Test func aCandidateEndingInADotGetsNoSpace() {
  #expect(
    CompletionAction(CompletionResult(word: "$d", candidates: ["$dog."])) == .replace("$dog."))
}

@Test func severalCandidatesExtendToTheirCommonBeginningThenList() {
  let extend = CompletionResult(word: "w", candidates: ["walk_request", "walk_log"])
  #expect(CompletionAction(extend) == .replace("walk_"))
  let list = CompletionResult(word: "walk_", candidates: ["walk_request", "walk_log"])
  #expect(CompletionAction(list) == .list(["walk_request", "walk_log"]))
  let duplicates = CompletionResult(word: "", candidates: ["id", "id"])
  #expect(CompletionAction(duplicates) == .replace("id "))
}

@Test func nothingToOfferBeeps() {
  #expect(CompletionAction(.none) == .beep)
}

@Test func listingFillsColumnsDownThenAcross() {
  let listing = CompletionListing.render(
    ["id", "name", "age", "created_at", "bio"], width: 30)
  #expect(listing == "id          created_at\nname        bio\nage\n")
  #expect(CompletionListing.render(["only"], width: 3) == "only\n")
  // A table named by a hostile server cannot drive the terminal from the listing.
  #expect(CompletionListing.render(["a\u{1B}[2J", "b"], width: 80) == "a\\u{1B}[2J  b\n")
  #expect(CompletionListing.render([], width: 80) == "")
}
