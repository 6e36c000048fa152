import SNMNetwork
import SNMWire

/// The `csv` format, RFC 4180's fields: a header line, then one record per row, lines ending in
/// LF as psql and pandas write them (CRLF with `crlf`, `--csv-crlf`).
///
/// ```
/// id,name,bio
/// 1,Kim,
/// 2,"Lee, Min","says ""hi"""
/// ```
/// A field with a comma, a quote, CR or LF is quoted, quotes doubled (and `\.`, as psql's csv
/// quotes it: alone on a line it ends `\copy`'s data). NULL is an empty field; the
/// empty string is `""` (as psql and `COPY ... CSV` do). Nested JSON is its compact text.
/// At a terminal (`visible`), names and values show control characters as escapes
/// (``VisibleText``); to a file or pipe the data is kept as it is.
struct CSVRenderer {
  /// Whether control characters are shown as escapes (the output is a terminal).
  var visible = false
  /// Whether lines end in CRLF (RFC 4180's line end, `--csv-crlf`) instead of LF.
  var crlf = false

  /// Writes `result`; returns false when the task was cancelled half-way.
  @discardableResult
  func render(_ result: ResultSet, to writer: OutputWriter) -> Bool {
    var out = RenderBuffer(writer: writer)
    defer { out.finish() }
    guard !result.columns.isEmpty else { return true }
    writeRecord(result.columns.map { Self.field(shown($0)) }, to: &out)
    for (index, row) in result.rows.enumerated() {
      if index & 1023 == 1023 && Task.isCancelled { return false }
      writeRecord(row, to: &out)
    }
    return true
  }

  /// Writes the rows of a document whose elements are objects with the same keys
  /// (``JSONShape/uniformObjects``), one at a time as they are read and without building them:
  /// the header is the first row's keys, as the union of all keys would be. With `arrived` (what
  /// ``ArrivingRows`` rendered while the body came), its text is written first and only the rows
  /// after it are read; the bytes are the same.
  ///
  /// - Throws: ``JSONParseError`` when the bytes stop being JSON half-way.
  func render(
    uniformRows document: JSONDocument, after arrived: ArrivingRows? = nil,
    to writer: OutputWriter
  ) throws -> Bool {
    if let arrived, let position = arrived.resumption(of: document, by: self) {
      writer.write(heldBy: arrived.held)
      var out = RenderBuffer(writer: writer)
      defer { out.finish() }
      return try document.withElements(from: position) { try writeRows(of: &$0, to: &out) }
    }
    var out = RenderBuffer(writer: writer)
    defer { out.finish() }
    guard let columns = document.firstRowKeys, !columns.isEmpty else { return true }
    writeHeader(columns, to: &out)
    return try document.withElements { try writeRows(of: &$0, to: &out) }
  }

  /// The header line: `columns`, each as one field.
  func writeHeader(_ columns: [String], to out: inout RenderBuffer) {
    writeRecord(columns.map { Self.field(shown($0)) }, to: &out)
  }

  /// Writes a record for each of the next `limit` rows of `elements` (all that are left when
  /// nil); false when the task was cancelled half-way.
  ///
  /// - Throws: ``JSONParseError`` when the bytes stop being an array of objects.
  func writeRows(of elements: inout JSONElements, limit: Int? = nil, to out: inout RenderBuffer)
    throws -> Bool
  {
    var index = 0
    while index != limit {
      if index & 1023 == 1023 && Task.isCancelled { return false }
      // A spilled answer's pages behind the rows written are given back as it goes.
      if index & 15 == 15 { elements.releasePassedPages() }
      let more =
        try visible
        ? writeVisibleRow(of: &elements, to: out.output)
        : elements.writeNextRowAsCSV(into: out.output)
      guard more else { return true }
      endLine(&out)
      index += 1
    }
    return true
  }

  /// The next row's record at a terminal: text with control characters shown as escapes.
  private func writeVisibleRow(of elements: inout JSONElements, to output: JSONTextBuffer)
    throws -> Bool
  {
    var column = 0
    return try elements.nextRow { kind, text in
      if column > 0 { output.append(UInt8(ascii: ",")) }
      column += 1
      guard kind == .string || kind == .nested,
        VisibleText.scan(String(decoding: text, as: UTF8.self)).control
      else { return CSVField.write(kind, text, into: output) }
      var shown = VisibleText.escaped(String(decoding: text, as: UTF8.self))
      shown.withUTF8 { CSVField.write(kind, $0, into: output) }
    }
  }

  /// Ends a record: LF, or CRLF with `crlf`.
  private func endLine(_ out: inout RenderBuffer) {
    if crlf { out.append(0x0D) }
    out.newline()
  }

  /// `text` as this renderer shows it: escaped at a terminal, else as it is.
  private func shown(_ text: String) -> String {
    visible ? VisibleText.escaped(text) : text
  }

  private func writeRecord(_ fields: [String], to out: inout RenderBuffer) {
    for (index, field) in fields.enumerated() {
      if index > 0 { out.append(UInt8(ascii: ",")) }
      out.append(field)
    }
    endLine(&out)
  }

  private func writeRecord(_ row: [JSONValue], to out: inout RenderBuffer) {
    for (index, value) in row.enumerated() {
      if index > 0 { out.append(UInt8(ascii: ",")) }
      switch value {
      case .null: break
      case .string(let text): Self.write(shown(text), emptyQuoted: true, to: &out)
      case .number(let number): out.append(number.text)
      case .bool(let flag): out.append(flag ? "true" : "false")
      case .array, .object: Self.write(shown(value.serialized()), emptyQuoted: false, to: &out)
      }
    }
    endLine(&out)
  }

  /// Writes `text` as one field (``CSVField``'s rules): quoted (quotes doubled) when it holds a
  /// comma, a quote, CR or LF, when it is `\.`, or when it is empty and must not read as NULL.
  static func write(_ text: String, emptyQuoted: Bool, to out: inout RenderBuffer) {
    var text = text
    text.withUTF8 { CSVField.write($0, emptyQuoted: emptyQuoted, into: out.output) }
  }

  /// `text` as one CSV field, quoted when it must be (for the header).
  static func field(_ text: String) -> String {
    let output = JSONTextBuffer(capacity: text.utf8.count + 2)
    var text = text
    text.withUTF8 { CSVField.write($0, emptyQuoted: false, into: output) }
    return String(decoding: output.written, as: UTF8.self)
  }
}
