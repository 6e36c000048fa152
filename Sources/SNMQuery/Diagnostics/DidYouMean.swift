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
      let distance = editDistance(typed, target)
      if distance <= limit && distance < (best?.1 ?? Int.max) { best = (candidate, distance) }
    }
    return best?.0
  }

  /// `help` text for a suggestion, or nil.
  public static func help(_ word: String, among candidates: [String]) -> String? {
    suggest(word, among: candidates).map { "did you mean '\($0)'?" }
  }

  /// Optimal-string-alignment distance (Levenshtein plus adjacent transpositions).
  static func editDistance(_ a: [UInt8], _ b: [UInt8]) -> Int {
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previousPrevious = [Int](repeating: 0, count: b.count + 1)
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      current[0] = i
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
        if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
          value = min(value, previousPrevious[j - 2] + 1)
        }
        current[j] = value
      }
      swap(&previousPrevious, &previous)
      swap(&previous, &current)
    }
    return previous[b.count]
  }
}
