import SNMQuery

extension CellText {
  /// The text in lines of at most `width` columns, for a cell wider than its column in a narrow
  /// table or record: cut between characters (a wide character never split), so that the lines
  /// put end to end are the text again. One line when it fits, when it is atomic (a number or a
  /// UUID is never broken), or when `width` is below 1.
  ///
  /// ```swift
  /// CellText(.string("abcdef")).lines(width: 4)   // ["abcd", "ef"]
  /// ```
  func lines(width: Int) -> [Substring] {
    guard self.width > width, !isAtomic, width > 0 else { return [text[...]] }
    var lines: [Substring] = []
    var start = text.startIndex
    var used = 0
    var index = text.startIndex
    while index < text.endIndex {
      let columns = DisplayWidth.of(text[index])
      if used + columns > width, index > start {
        lines.append(text[start..<index])
        start = index
        used = 0
      }
      used += columns
      index = text.index(after: index)
    }
    lines.append(text[start...])
    return lines
  }
}
