import SNMShell

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
    let close = known.min { editDistance($0, name) < editDistance($1, name) }
    if name.hasPrefix("--"), let close, editDistance(close, name) <= 2 {
      return "unknown option '\(name)' (did you mean '\(close)'?)"
    }
    return "unknown option '\(name)'"
  }

  static func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a)
    let b = Array(b)
    var row = Array(0...b.count)
    for i in 1...max(a.count, 1) where i <= a.count {
      var previous = row[0]
      row[0] = i
      for j in stride(from: 1, through: b.count, by: 1) {
        let current = row[j]
        row[j] = min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] == b[j - 1] ? 0 : 1))
        previous = current
      }
    }
    return row[b.count]
  }
}
