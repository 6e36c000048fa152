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
/// Numbers align right, everything else left. With `style.width` set, the widest text columns
/// are narrowed and their cells wrapped onto more lines until each line fits, as psql's `\pset
/// format wrapped` does; a number, NULL, UUID or timestamp is never broken or cut. A table that
/// cannot fit even so prints in the expanded format when `style.autoExpand` is set (`set
/// expanded auto`), else at the narrowest it can be, wider than the terminal.
struct TableRenderer {
  let style: RenderStyle
  /// The server's count of all matching rows, when asked for (`count exact`).
  var total: Int? = nil
  /// The largest body whose rows are read once and kept as cells (``largestKeptBody``); tests
  /// set 0 to print any body in two passes.
  var keptBodyBytes = Self.largestKeptBody

  /// Writes `result`; returns false when the task was cancelled half-way.
  @discardableResult
  func render(_ result: ResultSet, to writer: OutputWriter) -> Bool {
    var cells = TableCells(
      columns: result.columns, capacity: result.rows.count, null: style.nullText)
    for (index, row) in result.rows.enumerated() {
      if index & 1023 == 1023 && Task.isCancelled { return false }
      cells.add(row)
    }
    if expands(cells) {
      return ExpandedRenderer(style: style, total: total).render(result, to: writer)
    }
    return write(cells, to: writer)
  }

  /// Whether the measured table prints expanded instead: `set expanded auto`, more than one
  /// column, and too wide for the terminal even wrapped.
  private func expands(_ cells: TableCells) -> Bool {
    style.autoExpand && cells.columns.count > 1 && cells.rowCount > 0
      && Self.fit(cells.widths, minimums: cells.minimumWidths, within: style.width) == nil
  }

  /// Writes the rows of a document whose elements are objects with the same keys
  /// (``JSONShape/uniformObjects``) in two passes over them, one row at a time: the first
  /// measures the columns, the second prints. Nothing but one row is held, whatever the count.
  ///
  /// - Throws: ``JSONParseError`` when the bytes stop being JSON half-way.
  func render(uniformRows document: JSONDocument, to writer: OutputWriter) throws -> Bool {
    let columns = document.firstRowKeys ?? []
    if document.bytes.count <= keptBodyBytes {
      return try render(keepingRowsOf: document, columns: columns, to: writer)
    }
    var measured = TableCells(
      columns: columns, capacity: 0, keepsCells: false, null: style.nullText)
    let counted = try Self.forEachCell(of: document, columns: columns.count) { kind, text, column in
      measured.note(
        width: CellText.width(kind, text, null: style.nullText), isNull: kind == .null,
        isNumber: kind == .number, isAtomic: CellText.isAtomic(kind, text), column: column)
    } endRow: {
      measured.endRow()
    }
    guard counted else { return false }
    if expands(measured) {
      return try ExpandedRenderer(style: style, total: total).render(
        uniformRows: document, to: writer)
    }
    var out = RenderBuffer(writer: writer)
    defer { out.finish() }
    guard let layout = begin(measured, to: &out) else { return true }
    let rows = try Self.forEachRow(
      of: document, columns: columns.count, null: style.nullText, checkingEvery: 1024
    ) { line, _ in
      writeRow(line, widths: layout.widths, numeric: layout.numeric, to: &out)
    }
    guard rows != nil else { return false }
    out.append(Self.footer(measured.rowCount, total: total))
    out.newline()
    return true
  }

  /// Calls `row` with the cells of each row of `document` and its index, then gives the count of
  /// rows; nil when the task was cancelled half-way (asked every `checkEvery` rows, a power of 2).
  ///
  /// - Throws: ``JSONParseError`` when the bytes stop being JSON half-way.
  static func forEachRow(
    of document: JSONDocument, columns: Int, null: String, checkingEvery checkEvery: Int,
    _ row: (ArraySlice<CellText>, Int) -> Void
  ) throws -> Int? {
    try document.withElements { elements -> Int? in
      var line: [CellText] = []
      line.reserveCapacity(columns)
      var index = 0
      while true {
        if index & (checkEvery - 1) == checkEvery - 1 && Task.isCancelled { return nil }
        line.removeAll(keepingCapacity: true)
        let more = try elements.nextRow { kind, text in
          line.append(CellText(kind, text, null: null))
        }
        guard more else { return index }
        row(line[...], index)
        index += 1
      }
    }
  }

  /// Calls `cell` with each of the first `columns` cells of every row (kind, UTF-8 text, column)
  /// and `endRow` after each row; false when the task was cancelled half-way.
  ///
  /// - Throws: ``JSONParseError`` when the bytes stop being JSON half-way.
  private static func forEachCell(
    of document: JSONDocument, columns: Int,
    _ cell: (JSONFieldKind, UnsafeBufferPointer<UInt8>, Int) -> Void, endRow: () -> Void
  ) throws -> Bool {
    try document.withElements { elements -> Bool in
      var index = 0
      while true {
        if index & 1023 == 1023 && Task.isCancelled { return false }
        var column = 0
        let more = try elements.nextRow { kind, text in
          guard column < columns else { return }
          cell(kind, text, column)
          column += 1
        }
        guard more else { return true }
        endRow()
        index += 1
      }
    }
  }

  /// The largest body whose rows are read once and kept as cells, instead of read twice (measured,
  /// then printed) holding one row at a time: a script's one-row answers are parsed once, and
  /// what is kept is a few times 64 KiB at most.
  static let largestKeptBody = 64 << 10

  /// `render(uniformRows:to:)` in one pass over the rows, every cell kept: the same table.
  private func render(
    keepingRowsOf document: JSONDocument, columns: [String], to writer: OutputWriter
  ) throws -> Bool {
    var cells = TableCells(
      columns: columns, capacity: document.shape.count, null: style.nullText)
    let read = try Self.forEachCell(of: document, columns: columns.count) { kind, text, column in
      cells.add(kind, text, column: column)
    } endRow: {
      cells.endRow()
    }
    guard read else { return false }
    if expands(cells) {
      return try ExpandedRenderer(style: style, total: total).render(
        uniformRows: document, to: writer)
    }
    return write(cells, to: writer)
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
    let minimums = cells.minimumWidths
    let fitted = Self.fit(cells.widths, minimums: minimums, within: style.width) ?? minimums
    writeHeader(cells.columns, headerWidths: cells.headerWidths, widths: fitted, to: &out)
    return (fitted, cells.numeric)
  }

  /// `(1 row)`, `(3 rows)`, `(10 rows of 42)` when the server counted more than it sent.
  static func footer(_ count: Int, total: Int? = nil) -> String {
    let rows = count == 1 ? "(1 row" : "(\(count) rows"
    guard let total, total != count else { return rows + ")" }
    return rows + " of \(total))"
  }

  private func writeHeader(
    _ names: [String], headerWidths: [Int], widths: [Int], to out: inout RenderBuffer
  ) {
    for (column, name) in names.enumerated() {
      // A header cut only when its column was narrowed below it.
      let fits = headerWidths[column] <= widths[column] && widths[column] > 0
      let text = fits ? name : DisplayWidth.truncate(name, to: widths[column])
      let free = widths[column] - (fits ? headerWidths[column] : DisplayWidth.of(text))
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

  /// Writes one row: on one line when every cell fits its column, else on as many as its widest
  /// wrapped cell needs, the other columns blank below their text.
  private func writeRow(
    _ line: ArraySlice<CellText>, widths: [Int], numeric: [Bool], to out: inout RenderBuffer
  ) {
    let last = line.count - 1
    var wrapped: [[Substring]] = []
    for (column, cell) in line.enumerated() where cell.width > widths[column] {
      if wrapped.isEmpty { wrapped = Array(repeating: [], count: line.count) }
      wrapped[column] = cell.lines(width: widths[column])
    }
    if wrapped.isEmpty {
      writeLine(line, widths: widths, numeric: numeric, to: &out)
      return
    }
    let height = wrapped.map(\.count).max() ?? 1
    for row in 0..<max(height, 1) {
      for (column, cell) in line.enumerated() {
        var text = Substring(cell.text)
        var width = cell.width
        if !wrapped.isEmpty && !wrapped[column].isEmpty {
          text = row < wrapped[column].count ? wrapped[column][row] : ""
          width = DisplayWidth.of(text)
        } else if row > 0 {
          text = ""
          width = 0
        }
        if column == 0 {
          out.append(UInt8(ascii: " "))
        } else {
          // No trailing space after the last separator when the last cell is empty.
          out.append(column == last && width == 0 ? " |" : " | ")
        }
        let pad = widths[column] - width
        if numeric[column] { out.spaces(pad) }
        if cell.isNull && style.colour && row == 0 {
          out.append(RenderStyle.dim)
          out.append(text)
          out.append(RenderStyle.reset)
        } else {
          out.append(text)
        }
        if !numeric[column] && column < last { out.spaces(pad) }
      }
      out.newline()
    }
  }

  /// `writeRow` for a row whose every cell fits its column: one line, each cell's text appended
  /// whole (as a `String`: appending a `Substring`'s UTF-8 goes a byte at a time).
  private func writeLine(
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
      let pad = widths[column] - cell.width
      if numeric[column] { out.spaces(pad) }
      if cell.isNull && style.colour {
        out.append(RenderStyle.dim)
        out.append(cell.text)
        out.append(RenderStyle.reset)
      } else {
        out.append(cell.text)
      }
      if !numeric[column] && column < last { out.spaces(pad) }
    }
    out.newline()
  }

  /// Column widths so that a line (` a | b | c`) takes at most `total` columns: every column
  /// wider than a common cap is narrowed to it (its cells wrap), but never below its minimum (its
  /// widest atomic cell, see ``TableCells/minimumWidths``); the cap as high as fits. Nil when
  /// even the minimums do not fit; the widths as they are when `total` is nil.
  static func fit(_ widths: [Int], minimums: [Int], within total: Int?) -> [Int]? {
    guard let total else { return widths }
    let room = total - (3 * widths.count - 1)
    if widths.reduce(0, +) <= room { return widths }
    func narrowed(_ cap: Int) -> [Int] {
      zip(widths, minimums).map { width, minimum in max(min(minimum, width), min(width, cap)) }
    }
    if narrowed(0).reduce(0, +) > room { return nil }
    var low = 0
    var high = widths.max() ?? 0
    while low < high {
      let cap = (low + high + 1) / 2
      if narrowed(cap).reduce(0, +) <= room { low = cap } else { high = cap - 1 }
    }
    return narrowed(low)
  }
}
