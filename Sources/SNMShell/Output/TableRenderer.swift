import SNMQuery

/// The `table` format: aligned columns, a header, a rule and a `(N rows)` footer, as psql prints.
///
/// ```
///  id | name   | age
/// ----+--------+------
///   1 | Kim    |    3
///   2 | 김민지 | NULL
/// (2 rows)
/// ```
/// Numbers align right, everything else left. With `style.width` set, the widest columns are cut
/// (ending in `…`) until each line fits.
struct TableRenderer {
  let style: RenderStyle
  /// The server's count of all matching rows, when asked for (`count exact`).
  var total: Int? = nil

  /// Writes `result`; returns false when the task was cancelled half-way.
  @discardableResult
  func render(_ result: ResultSet, to writer: OutputWriter) -> Bool {
    var out = RenderBuffer(writer: writer)
    defer { out.finish() }
    let count = result.columns.count
    guard count > 0 else {
      out.append(Self.footer(result.rows.count, total: total))
      out.newline()
      return true
    }
    // One flat array of cells, row after row: one allocation instead of one per row.
    var cells: [CellText] = []
    cells.reserveCapacity(result.rows.count * count)
    var widths = result.columns.map { DisplayWidth.of($0) }
    var numeric = Array(repeating: true, count: count)
    var seen = Array(repeating: false, count: count)
    for row in result.rows {
      for column in 0..<count {
        let cell = CellText(row[column])
        if cell.width > widths[column] { widths[column] = cell.width }
        if !cell.isNull {
          seen[column] = true
          if !cell.isNumber { numeric[column] = false }
        }
        cells.append(cell)
      }
    }
    for column in 0..<count where !seen[column] { numeric[column] = false }
    let fitted = Self.fit(widths, within: style.width)
    writeHeader(result.columns, widths: fitted, to: &out)
    for index in 0..<result.rows.count {
      if index & 1023 == 1023 && Task.isCancelled { return false }
      writeRow(
        cells[index * count..<(index + 1) * count], widths: fitted, numeric: numeric, to: &out)
    }
    out.append(Self.footer(result.rows.count, total: total))
    out.newline()
    return true
  }

  /// `(1 row)`, `(3 rows)`, `(10 rows of 42)` when the server counted more than it sent.
  static func footer(_ count: Int, total: Int? = nil) -> String {
    let rows = count == 1 ? "(1 row" : "(\(count) rows"
    guard let total, total != count else { return rows + ")" }
    return rows + " of \(total))"
  }

  private func writeHeader(_ names: [String], widths: [Int], to out: inout RenderBuffer) {
    for (column, name) in names.enumerated() {
      let text = DisplayWidth.truncate(name, to: widths[column])
      let free = widths[column] - DisplayWidth.of(text)
      out.append(column == 0 ? " " : " | ")
      out.spaces(free / 2)
      out.append(style.colour ? RenderStyle.bold + text + RenderStyle.reset : text)
      if column < names.count - 1 { out.spaces(free - free / 2) }
    }
    out.newline()
    for (column, width) in widths.enumerated() {
      if column > 0 { out.append(UInt8(ascii: "+")) }
      out.repeating(UInt8(ascii: "-"), width + 2)
    }
    out.newline()
  }

  private func writeRow(
    _ line: ArraySlice<CellText>, widths: [Int], numeric: [Bool], to out: inout RenderBuffer
  ) {
    let last = line.count - 1
    for (column, cell) in line.enumerated() {
      if column == 0 {
        out.append(UInt8(ascii: " "))
      } else {
        // No trailing space after the last separator when the last cell is empty.
        out.append(column == last && cell.width == 0 ? " |" : " | ")
      }
      var text = cell.text
      var width = cell.width
      if width > widths[column] {
        text = DisplayWidth.truncate(text, to: widths[column])
        width = DisplayWidth.of(text)
      }
      let pad = widths[column] - width
      if numeric[column] { out.spaces(pad) }
      if cell.isNull && style.colour {
        out.append(RenderStyle.dim + text + RenderStyle.reset)
      } else {
        out.append(text)
      }
      if !numeric[column] && column < last { out.spaces(pad) }
    }
    out.newline()
  }

  /// Column widths cut so that a line (` a | b | c`) takes at most `total` columns: every column
  /// wider than a common cap is cut to it, the cap as high as fits (never below 3).
  static func fit(_ widths: [Int], within total: Int?) -> [Int] {
    guard let total else { return widths }
    let overhead = 3 * widths.count - 1
    let room = total - overhead
    if widths.reduce(0, +) <= room { return widths }
    var low = 3
    var high = widths.max() ?? 3
    while low < high {
      let cap = (low + high + 1) / 2
      if widths.reduce(0, { $0 + min($1, cap) }) <= room { low = cap } else { high = cap - 1 }
    }
    return widths.map { min($0, low) }
  }
}
