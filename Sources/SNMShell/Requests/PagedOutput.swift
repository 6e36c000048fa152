import Foundation
import SNMWire

/// The pages of a select with `all` as they come: csv, json and ndjson are written a page at a
/// time (one csv header, one json array), the table and expanded formats once the last page is
/// in (their widths need every row). Every page's rows are also kept, in one array, for the
/// statement's outcome (`expect rows`, `$last`) and for those formats.
///
/// ```swift
/// var pages = PagedOutput(format: .csv, writer: output, visible: false)
/// try pages.take(page)          // for each page, in order
/// let whole = pages.document()  // every row, as one answer
/// ```
struct PagedOutput {
  /// How the pages are written.
  enum Mode: Equatable {
    case csv, json, ndjson
    /// Nothing until the end (table, expanded; or `--quiet`).
    case atTheEnd
  }

  let mode: Mode
  /// Where csv, json and ndjson pages go; nil: nowhere (quiet, or written at the end).
  let writer: OutputWriter?
  /// At a terminal: csv shows control characters as escapes, json and ndjson hidden characters
  /// as JSON's escapes.
  let visible: Bool
  /// csv lines end in CRLF (`--csv-crlf`).
  let crlf: Bool
  /// The rows taken (the sum of the pages').
  private(set) var rows = 0
  /// Rows written to `writer` so far.
  private(set) var written = 0
  /// The rows so far as the inside of one JSON array.
  private var body = Data("[".utf8)
  private var uniform = true
  private var keys: [String]?

  init(mode: Mode, writer: OutputWriter?, visible: Bool = false, crlf: Bool = false) {
    self.mode = mode
    self.writer = writer
    self.visible = visible
    self.crlf = crlf
  }

  /// Takes the next page (a JSON array of rows), writing it now in the streamed formats.
  ///
  /// - Throws: ``JSONParseError`` when its bytes stop being JSON half-way.
  mutating func take(_ page: JSONDocument) throws {
    let count = page.shape.count
    guard page.shape.kind == .array, count > 0 else { return }
    let bytes = page.bytes.isEmpty ? Data(page.value.serializedBytes()) : page.bytes
    if let open = bytes.firstIndex(of: UInt8(ascii: "[")),
      let close = bytes.lastIndex(of: UInt8(ascii: "]")), open < close
    {
      if rows > 0 { body.append(UInt8(ascii: ",")) }
      body.append(bytes[bytes.index(after: open)..<close])
    }
    let pageKeys = page.firstRowKeys
    uniform = uniform && page.shape.uniformObjects && (keys == nil || keys == pageKeys)
    if keys == nil { keys = pageKeys }
    if let writer, mode != .atTheEnd {
      // json and ndjson at a terminal: hidden characters as JSON's escapes (``JSONRenderer``).
      try JSONRenderer.writing(to: writer, visible: visible && mode != .csv) {
        try write(page, to: $0)
      }
    }
    rows += count
  }

  /// Ends what the streamed formats wrote (the json array's close).
  func finish() {
    guard let writer else { return }
    switch mode {
    case .json where written > 0: writer.write("\n]\n")
    case .json: break
    case .csv, .ndjson, .atTheEnd: break
    }
    writer.flush()
  }

  /// Every row taken, as one answer.
  func document() -> JSONDocument {
    var whole = body
    whole.append(UInt8(ascii: "]"))
    return JSONDocument(
      checked: whole,
      shape: JSONShape(kind: .array, count: rows, uniformObjects: uniform && rows > 0))
  }

  private mutating func write(_ page: JSONDocument, to writer: OutputWriter) throws {
    var out = RenderBuffer(writer: writer)
    defer {
      out.finish()
      writer.flush()
    }
    let csv = CSVRenderer(visible: visible, crlf: crlf)
    var first = written == 0
    let finished = try page.withElements { elements in
      switch mode {
      case .csv:
        if first, let keys = page.firstRowKeys {
          csv.writeHeader(keys, to: &out)
          first = false
        }
        return try csv.writeRows(of: &elements, to: &out)
      case .json, .ndjson:
        return try JSONRenderer.writeElements(
          of: &elements, lines: mode == .ndjson, first: &first, opening: UInt8(ascii: "["),
          to: &out)
      case .atTheEnd:
        return true
      }
    }
    if finished { written += page.shape.count }
  }
}
