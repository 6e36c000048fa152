/// How results are printed: `--format`, `set format`, `\x`.
public enum OutputFormat: String, CaseIterable, Sendable {
  /// Aligned columns with a header and a `(N rows)` footer.
  case table
  /// One `column | value` block per row, for wide rows.
  case expanded
  /// The rows as one JSON array, as the server sent them.
  case json
  /// One JSON object per line.
  case ndjson
  /// RFC 4180 comma-separated values with a header line.
  case csv

  /// The names `--format` accepts, for messages: `table|expanded|json|ndjson|csv`.
  /// (Appended one by one: `joined(separator:)` first used at start-up cost 262k instructions,
  /// the runtime looking up its generic requirements' conformances.)
  public static var names: String {
    var names = ""
    for format in allCases {
      if !names.isEmpty { names += "|" }
      names += format.rawValue
    }
    return names
  }
}
