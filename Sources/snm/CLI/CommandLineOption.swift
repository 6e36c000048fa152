import SNMShell

/// One option of snm's command line, as the table declares it: its name, whether it takes a
/// value, which commands accept it, what `--help` says about it, what the shells complete after
/// it, and what it does to the parsed command line.
///
/// ```swift
/// CommandLineOption(
///   "--timeout", value: "SECONDS", for: .running,
///   help: "give up on a request after this long (the whole request)"
/// ) { parsed, value throws(UsageError) in parsed.shell.timeout = try seconds(value) }
/// ```
struct CommandLineOption: Sendable {
  /// What the shells offer after the option.
  enum Completion: Sendable, Equatable {
    /// Nothing: the user types the value.
    case none
    /// One of these words.
    case words([String])
    /// A file name.
    case files
    /// A directory name.
    case directories
  }

  typealias Apply = @Sendable (inout ParsedCommandLine, String) throws(UsageError) -> Void

  /// `--format`, `-c`.
  let name: String
  /// Other spellings (`-h` for `--help`).
  let aliases: [String]
  /// The value's placeholder in help (`FORMAT`), nil for a flag.
  let value: String?
  /// What `option '--x' needs a value` adds (`: table|expanded|json|ndjson|csv`).
  let valueHint: String?
  /// The whole message for a missing value, when the usual one will not do (`-c`).
  let missingValue: String?
  /// Whether its value is a secret (`--key`): the parser records where it read it, and
  /// ``HiddenArguments`` overwrites it there.
  let isSecret: Bool
  /// The commands that accept it.
  let commands: Set<Command>
  /// The line `--help` prints for it.
  let help: String
  let completion: Completion
  /// The commands whose `--help` leaves it out: `--help` itself, and the project flags `snm
  /// explain` accepts (so a command line can be reused) but has no use for.
  let unlisted: Set<Command>
  /// Sets what it means on the command line being read; the value is "" for a flag.
  let apply: Apply

  init(
    _ name: String, aliases: [String] = [], value: String? = nil, valueHint: String? = nil,
    missingValue: String? = nil, secret: Bool = false, for commands: Set<Command>, help: String,
    completion: Completion = .none,
    unlisted: Set<Command> = [], apply: @escaping Apply
  ) {
    self.name = name
    self.aliases = aliases
    self.value = value
    self.valueHint = valueHint
    self.missingValue = missingValue
    self.isSecret = secret
    self.commands = commands
    self.help = help
    self.completion = completion
    self.unlisted = unlisted
    self.apply = apply
  }

  /// Whether `command --help` lists it.
  func isListed(in command: Command) -> Bool {
    commands.contains(command) && !unlisted.contains(command)
  }

  /// Every spelling.
  var names: [String] { [name] + aliases }

  /// Why a value is missing: `option '--format' needs a value: table|...`.
  var missingValueMessage: String {
    missingValue ?? "option '\(name)' needs a value\(valueHint ?? "")"
  }

  /// `--format FORMAT`, `--echo`.
  var synopsis: String { value.map { "\(name) \($0)" } ?? name }
}
