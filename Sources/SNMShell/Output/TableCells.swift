import SNMNetwork
import SNMQuery
import SNMWire

/// What the table format keeps of a result while it is read: per column the widest cell and
/// whether it holds only numbers, and (unless it only measures) each value's display text and
/// width. The JSON values themselves can be dropped row by row.
///
/// ```swift
/// var cells = TableCells(columns: ["id", "name"], capacity: 2)
/// cells.add([1, "Kim"])
/// cells.widths         // [2, 4]
/// cells.row(0)         // the two CellText of the first row
/// ```
struct TableCells {
  let columns: [String]
  /// Cells row after row, in one flat array (one allocation instead of one per row); empty when
  /// only measuring.
  private(set) var cells: [CellText] = []
  /// Whether the cells are kept, or only measured (a second pass over the rows prints them).
  let keepsCells: Bool
  /// The widest cell per column, headers included.
  private(set) var widths: [Int]
  /// The width of each column's header (its escaped name).
  let headerWidths: [Int]
  /// The widest cell per column that must stay on one line (``CellText/isAtomic``), headers
  /// included: how narrow a wrapped column may get.
  private(set) var atomicWidths: [Int]
  private var numbers: [Bool]
  private var seen: [Bool]
  /// What NULL shows as (`set null`).
  private let null: String

  /// `columns` are the names as the server sent them; they are kept with control characters
  /// escaped (``VisibleText``).
  init(columns: [String], capacity: Int, keepsCells: Bool = true, null: String = "NULL") {
    let columns = columns.map { VisibleText.escaped($0) }
    self.null = null
    self.columns = columns
    self.keepsCells = keepsCells
    if keepsCells { cells.reserveCapacity(capacity * columns.count) }
    headerWidths = columns.map { DisplayWidth.of($0) }
    widths = headerWidths
    atomicWidths = widths
    numbers = Array(repeating: true, count: columns.count)
    seen = Array(repeating: false, count: columns.count)
  }

  /// How many rows were added.
  private(set) var rowCount = 0

  /// Adds a row: one value per column, in column order.
  mutating func add(_ row: some Collection<JSONValue>) {
    var column = 0
    for value in row where column < columns.count {
      let cell = CellText(value, null: null)
      note(
        width: cell.width, isNull: cell.isNull, isNumber: cell.isNumber, isAtomic: cell.isAtomic,
        column: column)
      if keepsCells { cells.append(cell) }
      column += 1
    }
    endRow()
  }

  /// Adds the cell in `column` of the current row, as `JSONElements.nextRow` hands it over; the
  /// row ends with ``endRow()``. Measured as the two passes over rows measure it
  /// (``CellText/isAtomic(_:_:)`` of the bytes), so either way the table is the same.
  mutating func add(_ kind: JSONFieldKind, _ text: UnsafeBufferPointer<UInt8>, column: Int) {
    let cell = CellText(kind, text, null: null)
    // The cell's own verdict is the bytes' one but for a string shown quoted (it reads as NULL);
    // asking the bytes of any other string that starts with a quote gives the same answer.
    let quoted = kind == .string && cell.text.utf8.first == UInt8(ascii: "\"")
    note(
      width: cell.width, isNull: cell.isNull, isNumber: cell.isNumber,
      isAtomic: quoted ? CellText.isAtomic(kind, text) : cell.isAtomic, column: column)
    if keepsCells { cells.append(cell) }
  }

  /// Measures one cell of the current row (cells kept are added with ``add(_:)``).
  mutating func note(width: Int, isNull: Bool, isNumber: Bool, isAtomic: Bool, column: Int) {
    if width > widths[column] { widths[column] = width }
    if isAtomic && width > atomicWidths[column] { atomicWidths[column] = width }
    if !isNull {
      seen[column] = true
      if !isNumber { numbers[column] = false }
    }
  }

  /// Counts a row whose cells were measured with ``note(width:isNull:isNumber:isAtomic:column:)``.
  mutating func endRow() {
    rowCount += 1
  }

  /// Per column, the narrowest it may be wrapped to: its widest atomic cell or header, and for
  /// text 10 columns (or its widest cell, when narrower).
  var minimumWidths: [Int] {
    zip(widths, atomicWidths).map { width, atomic in max(atomic, min(width, 10)) }
  }

  /// Per column, whether it aligns right: it holds numbers and nothing else but NULL.
  var numeric: [Bool] { zip(numbers, seen).map { $0 && $1 } }

  /// The cells of row `index`.
  func row(_ index: Int) -> ArraySlice<CellText> {
    cells[index * columns.count..<(index + 1) * columns.count]
  }
}
