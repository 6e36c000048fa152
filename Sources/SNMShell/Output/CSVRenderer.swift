import Foundation
import SNMNetwork

/// The `csv` format, RFC 4180: a header line, then one record per row, lines ending in CRLF.
///
/// ```
/// id,name,bio
/// 1,Kim,
/// 2,"Lee, Min","says ""hi"""
/// ```
/// A field with a comma, a quote, CR or LF is quoted, quotes doubled. NULL is an empty field; the
/// empty string is `""` (as psql and `COPY ... CSV` do). Nested JSON is its compact text.
struct CSVRenderer {
  /// Writes `result`; returns false when the task was cancelled half-way.
  @discardableResult
  func render(_ result: ResultSet, to writer: OutputWriter) -> Bool {
    var out = RenderBuffer(writer: writer)
    defer { out.finish() }
    guard !result.columns.isEmpty else { return true }
    writeRecord(result.columns.map { Self.field($0) }, to: &out)
    for (index, row) in result.rows.enumerated() {
      if index & 1023 == 1023 && Task.isCancelled { return false }
      writeRecord(row.map { Self.field(for: $0) }, to: &out)
    }
    return true
  }

  private func writeRecord(_ fields: [String], to out: inout RenderBuffer) {
    for (index, field) in fields.enumerated() {
      if index > 0 { out.append(UInt8(ascii: ",")) }
      out.append(field)
    }
    out.append(0x0D)
    out.newline()
  }

  static func field(for value: JSONValue) -> String {
    switch value {
    case .null: ""
    case .string(let text): text.isEmpty ? "\"\"" : field(text)
    case .number(let number): number.text
    case .bool(let flag): flag ? "true" : "false"
    case .array, .object: field(value.serialized())
    }
  }

  /// `text` as one CSV field, quoted when it must be.
  static func field(_ text: String) -> String {
    let special = text.utf8.contains {
      $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 0x0A || $0 == 0x0D
    }
    guard special else { return text }
    return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
  }
}
