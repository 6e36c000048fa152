import SNMNetwork
import SNMQuery
import SNMWire

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
    var cells = TableCells(
      columns: result.columns, capacity: result.rows.count, null: style.nullText)
    for (index, row) in result.rows.enumerated() {
      if index & 1023 == 1023 && Task.isCancelled { return false }
      cells.add(row)
    }
    return write(cells, to: writer)
  }

  /// Writes the rows of a document whose elements are objects with the same keys
  /// (``JSONShape/uniformObjects``) in two passes over them, one row at a time: the first
  /// measures the columns, the second prints. Nothing but one row is held, whatever the count.
  ///
  /// - Throws: ``JSONParseError`` when the bytes stop being JSON half-way.
  func render(uniformRows document: JSONDocument, to writer: OutputWriter) throws -> Bool {
    let columns = document.firstRowKeys ?? []
    var measured = TableCells(
      columns: columns, capacity: 0, keepsCells: false, null: style.nullText)
    let counted = try document.withElements { elements -> Bool in
      var index = 0
      while true {
        if index & 1023 == 1023 && Task.isCancelled { return false }
        var column = 0
        let more = try elements.nextRow { kind, text in
          guard column < columns.count else { return }
          measured.note(
            width: CellText.width(kind, text, null: style.nullText), isNull: kind == .null,
            isNumber: kind == .number,
            column: column)
          column += 1
        }
        guard more else { return true }
        measured.endRow()
        index += 1
      }
    }
    guard counted else { return false }
    var out = RenderBuffer(writer: writer)
    defer { out.finish() }
    guard let layout = begin(measured, to: &out) else { return true }
    let finished = try document.withElements { elements -> Bool in
      var line: [CellText] = []
      line.reserveCapacity(columns.count)
      var index = 0
      while true {
        if index & 1023 == 1023 && Task.isCancelled { return false }
        line.removeAll(keepingCapacity: true)
        let more = try elements.nextRow { kind, text in
          line.append(CellText(kind, text, null: style.nullText))
        }
        guard more else { return true }
        writeRow(line[...], widths: layout.widths, numeric: layout.numeric, to: &out)
        index += 1
      }
    }
    guard finished else { return false }
    out.append(Self.footer(measured.rowCount, total: total))
    out.newline()
    return true
  }

  /// Lays out the cells: header, rule, rows, footer.
  private func write(_ cells: TableCells, to writer: OutputWriter) -> Bool {
    var out = RenderBuffer(writer: writer)
    defer { out.finish() }
    guard let layout = begin(cells, to: &out) else { return true }
    for index in 0..<cells.rowCount {
      if index & 1023 == 1023 && Task.isCancelled { return false }
      writeRow(cells.row(index), widths: layout.widths, numeric: layout.numeric, to: &out)
    }
    out.append(Self.footer(cells.rowCount, total: total))
    out.newline()
    return true
  }

  /// Writes the header and rule for measured columns and returns the fitted widths and which
  /// columns align right; with no columns, writes the footer alone and returns nil.
  private func begin(_ cells: TableCells, to out: inout RenderBuffer) -> (
    widths: [Int], numeric: [Bool]
  )? {
    guard !cells.columns.isEmpty else {
      out.append(Self.footer(cells.rowCount, total: total))
      out.newline()
      return nil
    }
    let fitted = Self.fit(cells.widths, within: style.width)
    writeHeader(cells.columns, widths: fitted, to: &out)
    return (fitted, cells.numeric)
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
