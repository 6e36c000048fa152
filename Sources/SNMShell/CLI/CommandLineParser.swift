import SNMQuery

/// Reads snm's argv (without the program name) into an `Invocation`.
///
/// ```swift
/// let invocation = try CommandLineParser.parse(["--format", "json", "-c", "from user_info select *"])
/// ```
/// Options take their value as the next argument or after `=` (`--format=json`); `--` ends the
/// options. Throws `UsageError` for an unknown option, a missing or malformed value, or an unknown
/// subcommand argument.
public enum CommandLineParser {
  /// Subcommands whose arguments their own parsers read.
  public static let subcommands = ["explain", "test", "check", "local"]

  static let valueOptions = [
    "--url", "--key", "--profile", "--format", "--var", "--timeout", "--cacert",
  ]
  static let flagOptions = [
    "--echo", "--quiet", "--continue-on-error", "--no-color", "--help", "--version",
  ]

  /// The invocation `arguments` describe.
  /// - Throws: `UsageError`.
  public static func parse(_ arguments: [String]) throws(UsageError) -> Invocation {
    if let first = arguments.first {
      if subcommands.contains(first) { return .subcommand(first, Array(arguments.dropFirst())) }
      if first == "completion" { return try completion(Array(arguments.dropFirst())) }
    }
    var options = CommandLineOptions()
    var cursor = ArgumentCursor(arguments)
    var onlyFiles = false
    while let argument = cursor.next() {
      if onlyFiles || argument == "-" || !argument.hasPrefix("-") {
        options.files.append(argument)
        continue
      }
      if argument == "--" {
        onlyFiles = true
        continue
      }
      if argument == "-h" || argument == "--help" { return .help }
      if argument == "--version" { return .version }
      if argument == "-c" {
        guard let statements = cursor.next() else {
          throw UsageError("option '-c' needs statements to run")
        }
        options.commands.append(statements)
        continue
      }
      let (name, inline) = ArgumentCursor.split(argument)
      if flagOptions.contains(name) {
        guard inline == nil else { throw UsageError("option '\(name)' takes no value") }
        apply(flag: name, to: &options)
      } else if valueOptions.contains(name) {
        guard let value = cursor.value(inline: inline) else {
          throw UsageError("option '\(name)' needs a value\(valueHint(name))")
        }
        try apply(name, value, to: &options)
      } else {
        throw UsageError(unknownOption(name))
      }
    }
    return .run(options)
  }

  static func apply(flag: String, to options: inout CommandLineOptions) {
    switch flag {
    case "--echo": options.echo = true
    case "--quiet": options.quiet = true
    case "--continue-on-error": options.continueOnError = true
    default: options.noColor = true
    }
  }

  static func apply(_ name: String, _ value: String, to options: inout CommandLineOptions)
    throws(UsageError)
  {
    switch name {
    case "--url": options.url = value
    case "--key": options.key = value
    case "--profile": options.profile = value
    case "--format":
      guard let format = OutputFormat(rawValue: value.lowercased()) else {
        throw UsageError("unknown format '\(value)': use \(OutputFormat.names)")
      }
      options.format = format
    case "--timeout":
      guard let seconds = Double(value), seconds > 0, seconds.isFinite else {
        throw UsageError("option '--timeout' needs a number of seconds above 0, not '\(value)'")
      }
      options.timeout = seconds
    case "--cacert":
      options.caCertificates = value
    default:
      options.variables.append(try variable(value))
    }
  }

  /// `NAME=VALUE` with NAME a variable name (`[A-Za-z_][A-Za-z0-9_]*`).
  static func variable(_ text: String) throws(UsageError) -> CommandLineOptions.Variable {
    guard let equals = text.firstIndex(of: "=") else {
      throw UsageError("option '--var' needs NAME=VALUE, not '\(text)'")
    }
    let name = String(text[..<equals])
    let isName =
      name.first.map { $0 == "_" || ($0.isASCII && $0.isLetter) } == true
      && name.allSatisfy { $0 == "_" || ($0.isASCII && ($0.isLetter || $0.isNumber)) }
    guard isName else {
      throw UsageError("'--var \(text)': '\(name)' is not a variable name (letters, digits, _)")
    }
    return .init(name: name, value: String(text[text.index(after: equals)...]))
  }

  static func completion(_ arguments: [String]) throws(UsageError) -> Invocation {
    guard arguments.count == 1, let shell = CompletionScript.Shell(rawValue: arguments[0]) else {
      throw UsageError("usage: snm completion bash|zsh")
    }
    return .completion(shell)
  }

  static func valueHint(_ name: String) -> String {
    switch name {
    case "--format": ": \(OutputFormat.names)"
    case "--var": ": NAME=VALUE"
    case "--timeout": ": SECONDS"
    case "--cacert": ": FILE (PEM)"
    default: ""
    }
  }

  /// `unknown option '--fromat' (did you mean '--format'?)`.
  static func unknownOption(_ name: String) -> String {
    let known = valueOptions + flagOptions
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
