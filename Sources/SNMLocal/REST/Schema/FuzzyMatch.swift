/// The closest name to a misspelt one, for "Perhaps you meant ..." hints.
///
/// Similarity is `1 - levenshtein / max(length)` on lowercased names, as Data.FuzzySet scores
/// with Levenshtein rescoring; PostgREST asks for 0.75 for tables and functions.
///
///     FuzzyMatch.best("itemz", among: ["items", "users"], minimum: 0.75)  // "items"
enum FuzzyMatch {
  static func best(_ word: String, among candidates: [String], minimum: Double) -> String? {
    let target = Array(word.lowercased().unicodeScalars)
    var best: (name: String, score: Double)? = nil
    for candidate in candidates {
      let other = Array(candidate.lowercased().unicodeScalars)
      let longest = max(target.count, other.count)
      guard longest > 0 else { continue }
      let score = 1 - Double(distance(target, other)) / Double(longest)
      if score >= minimum, score > (best?.score ?? -1) {
        best = (candidate, score)
      }
    }
    return best?.name
  }

  /// Levenshtein distance.
  static func distance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      current[0] = i
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
      }
      swap(&previous, &current)
    }
    return previous[b.count]
  }
}
