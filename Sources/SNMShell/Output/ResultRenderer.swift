import SNMNetwork
import SNMWire

/// Prints a response body in one of the output formats.
///
/// ```swift
/// ResultRenderer(format: .table, style: RenderStyle(width: 100, colour: true))
///   .render(rows, to: .standardOutput)
/// ```
public struct ResultRenderer: Sendable {
  public let format: OutputFormat
  public let style: RenderStyle

  /// What to take a result's elements with while its answer arrives, for `render(_:arrived:)`:
  /// csv rows (the format whose rendering is most of its time after the last byte); nil for
  /// the other formats. The table formats need every row before the first line (its widths), and
  /// json's indented text would weigh more than the body beside it.
  public var arrivingRows: ArrivingElements? { arrivingRows(spillingPast: nil) }

  /// ``arrivingRows``, and for the formats printed a row at a time from the body's bytes
  /// whatever its size (csv, json, ndjson) a `spill`: a result's body goes on in a temporary file
  /// past its bound, instead of memory (the rows are printed from it once the answer is whole
  /// and valid). Nil for table and expanded (their widths need every row), and for json and
  /// ndjson without a spill.
  public func arrivingRows(spillingPast spill: BodySpill?) -> ArrivingElements? {
    switch format {
    case .csv:
      let renderer = CSVRenderer(visible: style.terminal, crlf: style.csvCRLF)
      // The text held beside a body that may spill is held to half what memory holds of it.
      let held = spill.map { $0.memoryBytes / 2 } ?? ArrivingRows.mostHeld
      return ArrivingElements(spill: spill) { ArrivingRows(renderer, mostHeld: held) }
    // json's and ndjson's rows are written as they are checked (``ArrivingLines``).
    case .json, .ndjson:
      return spill.map {
        ArrivingElements(spill: $0, writesRows: format == .ndjson ? .lines : .indented)
      }
    case .table, .expanded: return nil
    }
  }

  public init(format: OutputFormat, style: RenderStyle = RenderStyle()) {
    self.format = format
    self.style = style
  }

  /// Writes `value` to `writer`; returns false when the task was cancelled half-way.
  /// `defaultColumn` names the column of a scalar or an array of scalars (an rpc's name); `total`
  /// is the server's count (`count exact`), shown in the table and expanded footers.
  @discardableResult
  public func render(
    _ value: JSONValue, defaultColumn: String = "value", total: Int? = nil,
    to writer: OutputWriter
  ) -> Bool {
    // A tree takes the same path as bytes (it cannot fail to parse).
    (try? render(JSONDocument(value), defaultColumn: defaultColumn, total: total, to: writer))
      ?? false
  }

  /// Writes a parsed value through the row sets of the table, expanded and csv formats. An empty
  /// result whose `columns` are known (an empty array, or the null of `maybe single`) is a header
  /// and no row, as psql prints one.
  private func renderTree(
    _ value: JSONValue, defaultColumn: String, columns: [String]?, total: Int?,
    to writer: OutputWriter
  ) -> Bool {
    var rows: ResultSet {
      if let columns, value == .null || value == .array([]) {
        return ResultSet(columns: columns, rows: [])
      }
      return ResultSet(value, defaultColumn: defaultColumn)
    }
    switch format {
    case .json, .ndjson:
      return JSONRenderer(lines: format == .ndjson, visible: style.terminal)
        .render(value, to: writer)
    case .table: return TableRenderer(style: style, total: total).render(rows, to: writer)
    case .expanded: return ExpandedRenderer(style: style, total: total).render(rows, to: writer)
    case .csv:
      return CSVRenderer(visible: style.terminal, crlf: style.csvCRLF).render(rows, to: writer)
    }
  }

  /// Writes `document` to `writer`; returns false when the task was cancelled half-way. An array
  /// that has not been parsed is printed a row at a time from its bytes in every format (csv, table
  /// and expanded when every row has the first row's keys, as PostgREST's rows do), so the tree is
  /// never built; anything else is printed from ``JSONDocument/value``.
  ///
  /// - Throws: ``JSONParseError`` when the bytes stop being JSON half-way (they were checked when
  ///   the document was made, so only if that check and the parser disagree).
  /// `columns` are the keys the query names, the header of a result without rows. `arrived` is
  /// what the answer's ``ArrivingRows`` rendered while it came, used when it rendered as this
  /// renderer would (csv, the same `terminal`).
  @discardableResult
  public func render(
    _ document: JSONDocument, defaultColumn: String = "value", columns: [String]? = nil,
    total: Int? = nil, arrived: (any ArrivingElementsConsumer)? = nil, to writer: OutputWriter
  ) throws -> Bool {
    let rows = document.shape.kind == .array && document.shape.count > 0
    let uniform = rows && document.shape.uniformObjects
    switch format {
    case .json, .ndjson:
      return try JSONRenderer(lines: format == .ndjson, visible: style.terminal).render(
        document, after: arrived as? ArrivingLines, to: writer)
    case .csv where uniform:
      return try CSVRenderer(visible: style.terminal, crlf: style.csvCRLF).render(
        uniformRows: document, after: arrived as? ArrivingRows, to: writer)
    case .expanded where uniform:
      return try ExpandedRenderer(style: style, total: total).render(
        uniformRows: document, to: writer)
    case .table where uniform:
      return try TableRenderer(style: style, total: total).render(
        uniformRows: document, to: writer)
    default:
      // Rows that differ (csv) are built as a tree: not from a spilled body past what memory
      // would have held of it.
      if document.fileBacked && document.bytes.count > TransportRequest.defaultMaximumBodyBytes {
        throw SpilledRowsTooLarge(bytes: document.bytes.count)
      }
      return renderTree(
        document.value, defaultColumn: defaultColumn, columns: columns, total: total, to: writer)
    }
  }
}
