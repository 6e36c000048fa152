/// Where each line of a source starts, so many offsets become line numbers quickly (rendering a
/// script's diagnostics stays linear however many there are).
///
/// ```swift
/// let index = LineIndex(source)
/// source.location(of: offset, using: index)   // SourceLocation(line: 3, column: 27)
/// ```
public struct LineIndex: Sendable {
  /// The offset of the first byte of each line; the first is 0.
  let starts: [Int]

  public init(_ source: Source) {
    var starts = [0]
    for (offset, byte) in source.bytes.enumerated() where byte == UInt8(ascii: "\n") {
      starts.append(offset + 1)
    }
    self.starts = starts
  }

  /// The 1-based line holding `offset`.
  public func line(of offset: Int) -> Int {
    var low = 0
    var high = starts.count - 1
    while low < high {
      let middle = (low + high + 1) / 2
      if starts[middle] <= offset {
        low = middle
      } else {
        high = middle - 1
      }
    }
    return low + 1
  }
}

extension Source {
  /// The 1-based line (of the input, counting from ``firstLine``) and column of `offset`,
  /// finding the line with `index`.
  public func location(of offset: Int, using index: LineIndex) -> SourceLocation {
    let offset = min(max(offset, 0), bytes.count)
    let line = index.line(of: offset)
    let start = index.starts[line - 1]
    return SourceLocation(
      line: line + firstLine - 1, column: text(of: SourceRange(start: start, end: offset)).count + 1
    )
  }
}
