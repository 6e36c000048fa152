/// The OPTIONS every running mode of snm shares (`snm`, `snm FILE.snm`, `snm -c`, `snm test`).
///
/// ```swift
/// var options = CommandLineOptions()
/// options.format = .json
/// ```
public struct CommandLineOptions: Equatable, Sendable {
  /// `--url`: the project's URL (`https://<ref>.supabase.co`, `http://127.0.0.1:54321`).
  public var url: String?
  /// `--key`: the project's anon (or other) API key. Never printed.
  public var key: String?
  /// `--profile`: a named project in `$XDG_CONFIG_HOME/snm/config.json`.
  public var profile: String?
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
  /// `--no-color`: never colour, even at a terminal.
  public var noColor = false
  /// `-c STATEMENTS`, in the order given.
  public var commands: [String] = []
  /// Script files to run in order.
  public var files: [String] = []

  public init() {}

  /// One `--var NAME=VALUE`.
  public struct Variable: Equatable, Sendable {
    public var name: String
    public var value: String

    public init(name: String, value: String) {
      self.name = name
      self.value = value
    }
  }
}

/// What the command line asks snm to do.
public enum Invocation: Equatable, Sendable {
  /// The shell, statements after `-c`, or script files, with these options.
  case run(CommandLineOptions)
  /// `snm --help`.
  case help
  /// `snm --version`.
  case version
  /// `snm completion bash|zsh`.
  case completion(CompletionScript.Shell)
  /// A subcommand that parses its own arguments (`explain`, `test`, `check`, `local`).
  case subcommand(String, [String])
}
