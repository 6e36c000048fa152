import SNMQuery

/// Lays out completion candidates in columns, as `ls` does, for a terminal `width` columns wide.
///
/// ```swift
/// CompletionListing.render(["id", "name", "age"], width: 80)  // "id    name  age\n"
/// ```
enum CompletionListing {
  /// The candidates, column by column, each row ending in a newline. Names come from the server's
  /// schema, so control characters in them are shown escaped (``VisibleText``).
  static func render(_ candidates: [String], width: Int) -> String {
    guard !candidates.isEmpty else { return "" }
    let candidates = candidates.map { VisibleText.escaped($0) }
    let widths = candidates.map { DisplayWidth.of($0) }
    let cell = (widths.max() ?? 0) + 2
    let columns = max(1, min(candidates.count, width / max(cell, 1)))
    let rows = (candidates.count + columns - 1) / columns
    var out = ""
    for row in 0..<rows {
      var line = ""
      for column in 0..<columns {
        let index = column * rows + row
        guard index < candidates.count else { break }
        let isLast = column == columns - 1 || (column + 1) * rows + row >= candidates.count
        line += candidates[index]
        if !isLast { line += String(repeating: " ", count: cell - widths[index]) }
      }
      out += line + "\n"
    }
    return out
  }
}
