/// The shell statements of spec §5, with the psql-style aliases mapped onto them.
public enum ShellStatement: Sendable, Equatable {
  /// `help [topic]`
  case help(topic: String?)
  /// `tables`, `\dt`, `\d` without a table
  case tables
  /// `describe <table>`, `\d <table>`
  case describe(TableName)
  /// `explain [json|curl] <statement>`: print the request instead of sending it.
  indirect case explain(Statement, format: ExplainFormat)
  /// `set format table|expanded|json|ndjson|csv`
  case setFormat(Format)
  /// `set timing on|off`; `\timing` alone toggles (nil).
  case setTiming(Bool?)
  /// `set on_error stop|continue`
  case setOnError(OnError)
  /// `set pager on|off`: whether long results at the prompt go through the pager.
  case setPager(Bool)
  /// `\x`: switch between table and expanded output.
  case toggleExpanded
  /// `exit`, `quit`, `\q`
  case exit

  /// The result formats of `set format`.
  public enum Format: String, Sendable, Equatable, CaseIterable {
    case table, expanded, json, ndjson, csv
  }

  /// What `set on_error` makes a script do after a failed statement.
  public enum OnError: String, Sendable, Equatable, CaseIterable {
    case stop, `continue`
  }
}

/// How `explain` prints a request.
public enum ExplainFormat: String, Sendable, Equatable, CaseIterable {
  /// A readable block with the Swift builder chain.
  case text
  /// The spec §6 JSON object.
  case json
  /// A curl command line.
  case curl
}
