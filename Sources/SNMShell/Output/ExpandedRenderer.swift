import SNMQuery

/// The `expanded` format (`\x`): one block per row, a `column | value` line per column.
///
/// ```
/// -[ RECORD 1 ]----------
/// id   | 1
/// name | Kim
/// ```
/// With `style.width` set, values are cut (ending in `…`) to fit.
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
    let keyWidth = result.columns.map { DisplayWidth.of($0) }.max() ?? 0
    let valueRoom = style.width.map { max(3, $0 - keyWidth - 3) }
    for (index, row) in result.rows.enumerated() {
      if index & 255 == 255 && Task.isCancelled { return false }
      let cells = row.map { CellText($0) }
      let widest = cells.map(\.width).max() ?? 0
      let label = "-[ RECORD \(index + 1) ]"
      var ruleWidth = max(DisplayWidth.of(label), keyWidth + 3 + min(widest, valueRoom ?? widest))
      if let width = style.width { ruleWidth = min(ruleWidth, max(width, label.count)) }
      out.append(label)
      out.repeating(UInt8(ascii: "-"), ruleWidth - label.count)
      out.newline()
      for (column, name) in result.columns.enumerated() {
        out.append(style.colour ? RenderStyle.bold + name + RenderStyle.reset : name)
        out.spaces(keyWidth - DisplayWidth.of(name))
        let cell = cells[column]
        var text = cell.text
        if let room = valueRoom, cell.width > room { text = DisplayWidth.truncate(text, to: room) }
        out.append(text.isEmpty ? " |" : " | ")
        out.append(cell.isNull && style.colour ? RenderStyle.dim + text + RenderStyle.reset : text)
        out.newline()
      }
    }
    if let total, total != result.rows.count {
      out.append(TableRenderer.footer(result.rows.count, total: total))
      out.newline()
    }
    return true
  }
}
