import SNMWire

/// Suggestions for misspelled words: `selec` -> `select`, `lmit` -> `limit`.
public enum DidYouMean {
  /// The closest candidate within a small edit distance (case-insensitive), if any.
  ///
  /// Words of up to three letters allow one edit, longer ones two; a transposition counts as one.
  public static func suggest(_ word: String, among candidates: [String]) -> String? {
    let typed = Array(word.lowercased().utf8)
    guard !typed.isEmpty, typed.count <= 40 else { return nil }
    let limit = typed.count <= 3 ? 1 : 2
    var best: (String, Int)?
    for candidate in candidates {
      let target = Array(candidate.lowercased().utf8)
      if target == typed { continue }
      if abs(target.count - typed.count) > limit { continue }
      let distance = EditDistance.between(typed, target, transpositions: true)
      if distance <= limit && distance < (best?.1 ?? Int.max) { best = (candidate, distance) }
    }
    return best?.0
  }

  /// `help` text for a suggestion, or nil.
  public static func help(_ word: String, among candidates: [String]) -> String? {
    suggest(word, among: candidates).map { "did you mean '\($0)'?" }
  }
}
