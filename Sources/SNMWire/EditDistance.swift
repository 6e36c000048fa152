/// How many one-element edits turn one sequence into another: insertions, deletions and
/// substitutions (Levenshtein), and with `transpositions` also swaps of two neighbours (optimal
/// string alignment). The one edit distance of both sides: the language's and the command
/// line's "did you mean" hints, and the gateway's "Perhaps you meant" ones.
///
/// ```swift
/// EditDistance.between(Array("selec"), Array("select"))                    // 1
/// EditDistance.between(Array("form"), Array("from"))                       // 2
/// EditDistance.between(Array("form"), Array("from"), transpositions: true) // 1
/// ```
package enum EditDistance {
  package static func between<Element: Equatable>(
    _ a: [Element], _ b: [Element], transpositions: Bool = false
  ) -> Int {
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var beforePrevious = [Int](repeating: 0, count: b.count + 1)
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      current[0] = i
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
        if transpositions && i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
          value = min(value, beforePrevious[j - 2] + 1)
        }
        current[j] = value
      }
      swap(&beforePrevious, &previous)
      swap(&previous, &current)
    }
    return previous[b.count]
  }
}
