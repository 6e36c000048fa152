import SNMWire

/// The closest name to a misspelt one, for "Perhaps you meant ..." hints, chosen as PostgREST's
/// Data.FuzzySet (fuzzyset 0.2) chooses it.
///
/// A name equal but for case is the match. Otherwise, for n-grams of 3 and then of 2 letters
/// (of the lowercased name without punctuation, in `-...-`): the candidates sharing an n-gram,
/// ranked by cosine similarity of their n-gram counts, the first 50 rescored by
/// `1 - levenshtein / max(length)` on the lowercased names and kept from `minimum` up, best first
/// (a tie keeps the n-gram ranking); the first n-gram size that keeps any answers. PostgREST 13 asks
/// for 0.33 (FuzzySet's `getOne`) everywhere; 0.75 for tables and functions came in version 16.
///
///     FuzzyMatch.best("itemz", among: ["items", "users"], minimum: 0.75)  // "items"
///     FuzzyMatch.best("tasks", among: ["masks", "task"], minimum: 0.75)   // "task"
enum FuzzyMatch {
  static func best(_ word: String, among candidates: [String], minimum: Double) -> String? {
    ranked(word, among: candidates, minimum: minimum).first?.name
  }

  /// The matches best first, with their scores (Data.FuzzySet's `getWithMinScore`).
  private static func ranked(
    _ word: String, among candidates: [String], minimum: Double
  ) -> [(name: String, score: Double)] {
    let key = word.lowercased()
    var seen: Set<String> = []
    var entries: [(name: String, key: String)] = []
    for candidate in candidates {
      let lowered = candidate.lowercased()
      if lowered == key { return [(candidate, 1)] }
      if seen.insert(lowered).inserted { entries.append((candidate, lowered)) }
    }
    let target = Array(key.unicodeScalars)
    for size in [3, 2] {
      let query = grams(key, size: size)
      let queryNorm = norm(query)
      guard queryNorm > 0 else { continue }
      var similar: [(index: Int, cosine: Double)] = []
      for (index, entry) in entries.enumerated() {
        let other = grams(entry.key, size: size)
        var dot = 0
        for (gram, count) in query { dot += count * (other[gram] ?? 0) }
        if dot > 0 { similar.append((index, Double(dot) / (queryNorm * norm(other)))) }
      }
      let top = stableSorted(similar.map { ($0.index, $0.cosine) }).prefix(50)
      let rescored = top.map { index, _ -> (Int, Double) in
        let other = Array(entries[index].key.unicodeScalars)
        let longest = max(target.count, other.count)
        return (index, 1 - Double(EditDistance.between(target, other)) / Double(max(longest, 1)))
      }
      let kept = stableSorted(rescored).filter { $0.1 >= minimum }
      if !kept.isEmpty { return kept.map { (entries[$0.0].name, $0.1) } }
    }
    return []
  }

  /// Highest score first; equal scores keep their order.
  private static func stableSorted(_ scored: [(Int, Double)]) -> [(Int, Double)] {
    scored.enumerated().sorted { left, right in
      left.element.1 != right.element.1
        ? left.element.1 > right.element.1 : left.offset < right.offset
    }.map(\.element)
  }

  /// The n-grams of `text` lowercased, with only letters, digits, spaces and commas, between
  /// `-` and `-`, counted.
  static func grams(_ text: String, size: Int) -> [String: Int] {
    var padded: [Character] = ["-"]
    for character in text.lowercased()
    where character.isLetter || character.isNumber || character.isWhitespace || character == "," {
      padded.append(character)
    }
    padded.append("-")
    var counts: [String: Int] = [:]
    guard padded.count >= size else { return counts }
    for start in 0...(padded.count - size) {
      counts[String(padded[start..<start + size]), default: 0] += 1
    }
    return counts
  }

  private static func norm(_ counts: [String: Int]) -> Double {
    Double(counts.values.reduce(0) { $0 + $1 * $1 }).squareRoot()
  }
}
