/// The shell statements of spec §5, with the psql-style aliases mapped onto them.
public enum ShellStatement: Sendable, Equatable {
  /// `help [topic]`
  case help(topic: String?)
  /// `tables`, `\dt`, `\d` without a table
  case tables
  /// `describe <table>`, `\d <table>`; `describe+` (`detailed`) adds comments.
  case describe(TableName, detailed: Bool = false)
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
  /// `set expanded on|off|auto`: records always, never, or when a table is too wide for the
  /// terminal even wrapped (the default).
  case setExpanded(Expanded)
  /// `\x`: expanded output on, or off when it is on.
  case toggleExpanded
  /// `set null 'X'`, `\pset null X`: the text tables show for NULL (`NULL` unless set).
  case setNull(String)
  /// `set timezone 'America/New_York'`: queries and `rpc` send `Prefer: timezone=...`, so the
  /// server reads and writes timestamps in that zone; `set timezone off` stops it (nil).
  case setTimezone(String?)
  /// `\conninfo`: the project, its key's kind and role, who is signed in (never a key or token).
  case connectionInfo
  /// `\o FILE`, `set output 'FILE'`: results go to FILE (created or emptied; a quoted name's
  /// `${...}` parts filled in when it runs); `\o` alone (nil) sends them back to standard output.
  case output(OutputFile?)
  /// `\e`: edit the last statement in `$VISUAL` (else `$EDITOR`, else `vi`), then run it.
  case edit
  /// `\watch [SECONDS] [count=N]`: run the last statement again every SECONDS (2 unless given)
  /// until Ctrl-C, or N times.
  case watch(seconds: Double, count: Int?)
  /// `\?`: the psql-style commands.
  case backslashHelp
  /// `exit`, `quit`, `\q`
  case exit

  /// Whether the statement only changes a setting (what a startup file may hold).
  public var isSetting: Bool {
    switch self {
    case .setFormat, .setExpanded, .setTiming, .setOnError, .setPager, .toggleExpanded, .setNull,
      .setTimezone:
      true
    default: false
    }
  }

  /// The result formats of `set format`.
  public enum Format: String, Sendable, Equatable, CaseIterable {
    case table, expanded, json, ndjson, csv
  }

  /// The choices of `set expanded`.
  public enum Expanded: String, Sendable, Equatable, CaseIterable {
    case on, off, auto
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
