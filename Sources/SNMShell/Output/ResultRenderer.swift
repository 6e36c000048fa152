import SNMNetwork

/// Prints a response body in one of the output formats.
///
/// ```swift
/// ResultRenderer(format: .table, style: RenderStyle(width: 100, colour: true))
///   .render(rows, to: .standardOutput)
/// ```
public struct ResultRenderer: Sendable {
  public let format: OutputFormat
  public let style: RenderStyle

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
    switch format {
    case .json: JSONRenderer(lines: false).render(value, to: writer)
    case .ndjson: JSONRenderer(lines: true).render(value, to: writer)
    case .table:
      TableRenderer(style: style, total: total).render(
        ResultSet(value, defaultColumn: defaultColumn), to: writer)
    case .expanded:
      ExpandedRenderer(style: style, total: total).render(
        ResultSet(value, defaultColumn: defaultColumn), to: writer)
    case .csv: CSVRenderer().render(ResultSet(value, defaultColumn: defaultColumn), to: writer)
    }
  }
}
