import SNMShell
import SNMWire

/// Reads snm's argv (without the program name) on ``CommandLineTable``.
///
/// ```swift
/// let invocation = try CommandLineParser.parse(["--format", "json", "-c", "from user_info select *"])
/// ```
/// A first argument naming a subcommand picks it. Options take their value as the next argument or
/// after `=` (`--format=json`); `--` ends the options; `-` is an argument. `--help` stops the
/// reading. Throws `UsageError` for an option the command does not take (with the closest one it
/// does), a missing or malformed value, or arguments the command cannot use.
enum CommandLineParser {
  static func parse(_ arguments: [String]) throws(UsageError) -> Invocation {
    var secretValues: [HiddenArguments.Place] = []
    return try parse(arguments, secretValues: &secretValues)
  }

  /// ``parse(_:)``, adding to `secretValues` where it read the value of each secret option
  /// (``CommandLineOption/isSecret``), those before a usage error too.
  static func parse(
    _ arguments: [String], secretValues: inout [HiddenArguments.Place]
  ) throws(UsageError) -> Invocation {
    var cursor = ArgumentCursor(arguments)
    let command = arguments.first.flatMap(Command.subcommand(named:)) ?? .shell
    if command != .shell { _ = cursor.next() }
    var parsed = ParsedCommandLine(command: command)
    var onlyArguments = false
    while let argument = cursor.next() {
      if onlyArguments || argument == "-" || !argument.hasPrefix("-") {
        parsed.positionals.append(argument)
        continue
      }
      if argument == "--" {
        onlyArguments = true
        continue
      }
      let (name, inline) = ArgumentCursor.split(argument)
      guard let option = CommandLineTable.option(named: name, for: command) else {
        throw UsageError(unknownOption(name, for: command))
      }
      if option.value == nil {
        guard inline == nil else { throw UsageError("option '\(name)' takes no value") }
        try option.apply(&parsed, "")
      } else {
        guard let value = cursor.value(inline: inline) else {
          throw UsageError(option.missingValueMessage)
        }
        if option.isSecret {
          // The value is the argument just read: the next one, or this one after `NAME=`.
          secretValues.append(
            HiddenArguments.Place(
              argument: cursor.index - 1, offset: inline == nil ? 0 : name.utf8.count + 1))
        }
        try option.apply(&parsed, value)
      }
      if parsed.help { return .help(command) }
    }
    return try parsed.invocation()
  }

  /// `unknown option '--fromat' (did you mean '--format'?)`, among the command's own options.
  static func unknownOption(_ name: String, for command: Command) -> String {
    if name == "-c", command == .test || command == .check {
      return "'snm \(command.rawValue)' takes files, not -c"
    }
    let known = CommandLineTable.options(for: command).map(\.name).filter { $0.hasPrefix("--") }
    let typed = Array(name)
    let close = known.min {
      EditDistance.between(Array($0), typed) < EditDistance.between(Array($1), typed)
    }
    if name.hasPrefix("--"), let close, EditDistance.between(Array(close), typed) <= 2 {
      return "unknown option '\(name)' (did you mean '\(close)'?)"
    }
    return "unknown option '\(name)'"
  }
}
