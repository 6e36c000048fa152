import SNMQuery
import SNMWire

/// The `expanded` format (`\x`): one block per row, a `column | value` line per column.
///
/// ```
/// -[ RECORD 1 ]----------
/// id   | 1
/// name | Kim
/// ```
/// With `style.width` set, a longer value wraps onto more lines (` | ` under its first one), as
/// psql's wrapped format does; a number, NULL, UUID or timestamp is never broken or cut.
struct ExpandedRenderer {
  let style: RenderStyle
  /// The server's count of all matching rows, shown at the end when it differs from the rows sent.
  var total: Int? = nil

  /// Writes `result`; returns false when the task was cancelled half-way.
  @discardableResult
  func render(_ result: ResultSet, to writer: OutputWriter) -> Bool {
    var out = RenderBuffer(writer: writer)
    defer { out.finish() }
    guard !result.rows.isEmpty, !result.columns.isEmpty else {
      out.append(TableRenderer.footer(result.rows.count, total: total))
      out.newline()
      return true
    }
    let names = Names(result.columns)
    for (index, row) in result.rows.enumerated() {
      if index & 255 == 255 && Task.isCancelled { return false }
      writeRecord(index, row.map { CellText($0, null: style.nullText) }, names: names, to: &out)
    }
    writeFooter(rows: result.rows.count, to: &out)
    return true
  }

  /// Writes the rows of a document whose elements are objects with the same keys
  /// (``JSONShape/uniformObjects``) one at a time as they are read, without building them.
  ///
  /// - Throws: ``JSONParseError`` when the bytes stop being JSON half-way.
  func render(uniformRows document: JSONDocument, to writer: OutputWriter) throws -> Bool {
    let columns = document.firstRowKeys ?? []
    var out = RenderBuffer(writer: writer)
    defer { out.finish() }
    let names = Names(columns)
    let rows = try TableRenderer.forEachRow(
      of: document, columns: columns.count, null: style.nullText, checkingEvery: 256
    ) { cells, index in
      if !columns.isEmpty {
        writeRecord(index, cells.prefix(columns.count), names: names, to: &out)
      }
    }
    guard let rows else { return false }
    if rows == 0 || columns.isEmpty {
      out.append(TableRenderer.footer(rows, total: total))
      out.newline()
      return true
    }
    writeFooter(rows: rows, to: &out)
    return true
  }

  /// The column names as shown (control characters escaped) and the width they take.
  struct Names {
    let shown: [String]
    let width: Int

    init(_ columns: [String]) {
      shown = columns.map { VisibleText.escaped($0) }
      width = shown.map { DisplayWidth.of($0) }.max() ?? 0
    }
  }

  /// One `-[ RECORD n ]` block.
  private func writeRecord<Cells: Collection<CellText>>(
    _ index: Int, _ cells: Cells, names: Names, to out: inout RenderBuffer
  ) {
    let keyWidth = names.width
    let valueRoom = style.width.map { max(3, $0 - keyWidth - 3) }
    let widest = cells.map(\.width).max() ?? 0
    let label = "-[ RECORD \(index + 1) ]"
    var ruleWidth = max(DisplayWidth.of(label), keyWidth + 3 + min(widest, valueRoom ?? widest))
    if let width = style.width { ruleWidth = min(ruleWidth, max(width, label.count)) }
    out.append(label)
    out.repeating(UInt8(ascii: "-"), ruleWidth - label.count)
    out.newline()
    for (name, cell) in zip(names.shown, cells) {
      out.append(style.colour ? RenderStyle.bold + name + RenderStyle.reset : name)
      out.spaces(keyWidth - DisplayWidth.of(name))
      let text = cell.text
      out.append(text.isEmpty ? " |" : " | ")
      guard let room = valueRoom, cell.width > room else {
        out.append(cell.isNull && style.colour ? RenderStyle.dim + text + RenderStyle.reset : text)
        out.newline()
        continue
      }
      for (index, line) in cell.lines(width: room).enumerated() {
        if index > 0 {
          out.spaces(keyWidth)
          out.append(" | ")
        }
        out.append(line)
        out.newline()
      }
    }
  }

  private func writeFooter(rows: Int, to out: inout RenderBuffer) {
    if let total, total != rows {
      out.append(TableRenderer.footer(rows, total: total))
      out.newline()
    }
  }
}
