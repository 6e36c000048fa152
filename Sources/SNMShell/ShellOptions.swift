import SNMWire

/// What every running mode of snm takes from its command line (`snm`, `snm FILE.snm`, `snm -c`,
/// `snm test`, `snm check`): the project flags, how results print, the variables bound before the
/// first statement, the request timeout.
///
/// ```swift
/// var options = ShellOptions()
/// options.format = .json
/// options.variables = [.init(name: "id", value: "7")]
/// ```
public struct ShellOptions: Equatable, Sendable {
  /// `--url`: the project's URL (`https://<ref>.supabase.co`, `http://127.0.0.1:54321`).
  public var url: String?
  /// `--key`: the project's anon (or other) API key. Never printed.
  public var key: String?
  /// `--service-key`: the service key for `admin ...`, `inbox` and `as service`. Never printed.
  public var serviceKey: String?
  /// `--profile`: a named project in `$XDG_CONFIG_HOME/snm/config.json`.
  public var profile: String?
  /// `--local`: the local project (`snm local start`'s default), started on first use.
  public var local = false
  /// `--format`: how results print; nil means table at the prompt.
  public var format: OutputFormat?
  /// `--var NAME=VALUE`, in the order given.
  public var variables: [Variable] = []
  /// `--echo`: print each statement before its result.
  public var echo = false
  /// `--quiet`: print only failures.
  public var quiet = false
  /// `--continue-on-error`: a failed statement does not stop a script.
  public var continueOnError = false
  /// `--timeout SECONDS`: the longest a request may take.
  public var timeout: Double?
  /// `--cacert FILE`: CA certificates (PEM) to trust for `https://`, as curl's option; else
  /// `$SSL_CERT_FILE`, else the system's.
  public var caCertificates: String?
  /// `--csv-crlf`: csv lines end in CRLF (RFC 4180) instead of LF.
  public var csvCRLF = false
  /// `--no-color`: never colour, even at a terminal.
  public var noColor = false
  /// `-X`: the interactive shell does not read the startup file (`StartupFile`).
  public var skipStartupFile = false
  /// `--session shared`: script files use (and keep) the saved session; by default each run of
  /// files has a session of its own, signed out at the start and never saved.
  public var sharedSession = false

  public init() {}

  /// One `--var NAME=VALUE`.
  public struct Variable: Equatable, Sendable {
    public var name: String
    public var value: String

    public init(name: String, value: String) {
      self.name = name
      self.value = value
    }

    /// The value a statement sees as `$NAME`: text as written, except that one starting with `{`
    /// or `[` that is JSON is that object or array (`--var dog='{"id": 7}'`, then `$dog.id`).
    public var json: JSONValue {
      if let first = value.first, first == "{" || first == "[",
        let parsed = try? JSONValue(parsing: value)
      {
        return parsed
      }
      return .string(value)
    }
  }

  /// The `--var` values by name (the last of a repeated name wins).
  public var variableValues: [String: JSONValue] {
    Dictionary(variables.map { ($0.name, $0.json) }, uniquingKeysWith: { _, last in last })
  }
}
