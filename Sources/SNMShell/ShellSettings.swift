/// What `set` changes at the prompt or in a script, starting from the command-line options.
public struct ShellSettings: Equatable, Sendable {
  /// `set format ...`: how results print.
  public var format: OutputFormat = .table
  /// `set expanded auto` (the default): at a terminal, a table that cannot fit its width even
  /// wrapped prints expanded. `set expanded on` is `format` `expanded`; `off` is `table` without
  /// this.
  public var autoExpand = true
  /// `set timing on|off`: print network and rendering time after each statement.
  public var timing = false
  /// `set pager on|off`: long results at the prompt go through the pager (`Pager`).
  public var pager = true
  /// `set null 'X'` (`\pset null X`): what tables show for NULL.
  public var nullText = "NULL"
  /// `set timezone 'Zone'`: sent as `Prefer: timezone=Zone` with every query and `rpc`.
  public var timezone: String?
  /// `set on_error stop|continue`: whether a failed statement stops a script.
  public var onError: OnError = .stop
  /// `--echo`: print each statement before its result.
  public var echo = false
  /// `--quiet`: print only failures.
  public var quiet = false
  /// Colour is allowed on standard output (a terminal, no `NO_COLOR`, no `--no-color`).
  public var colour = false
  /// `--csv-crlf`: csv lines end in CRLF (RFC 4180); else in LF, as psql and pandas write.
  public var csvCRLF = false

  /// `on`, `off` or `auto`: what `set expanded` last made of `format` and `autoExpand`.
  public var expanded: String {
    format == .expanded ? "on" : format == .table ? (autoExpand ? "auto" : "off") : "off"
  }

  /// What a failed statement does to the rest of a script.
  public enum OnError: String, Sendable, CaseIterable {
    case stop
    case `continue`
  }
}

extension ShellSettings {
  /// The settings the command line asks for.
  public init(options: ShellOptions, colour: Bool) {
    self.init(
      format: options.format ?? .table, onError: options.continueOnError ? .continue : .stop,
      echo: options.echo, quiet: options.quiet, colour: colour)
    csvCRLF = options.csvCRLF
  }
}
