import SNMNetwork
import SNMWire

extension ExplainCommand {
  /// A problem with the arguments; an empty message means `--help`.
  struct UsageProblem: Error {
    var message: String
  }

  /// The command's arguments.
  struct Options {
    var format: ExplainFormat?
    var url: String?
    var scope = VariableScope()
    var statements: [String] = []

    static func parse(_ arguments: [String]) -> Swift.Result<Options, UsageProblem> {
      var options = Options()
      var cursor = ArgumentCursor(arguments)
      var onlyStatements = false
      while let argument = cursor.next() {
        if onlyStatements || !argument.hasPrefix("-") || argument == "-" {
          options.statements.append(argument)
          continue
        }
        let (name, inline) = ArgumentCursor.split(argument)
        switch name {
        case "--":
          onlyStatements = true
        case "-h", "--help":
          return .failure(UsageProblem(message: ""))
        case "--json", "--curl":
          let format: ExplainFormat = name == "--json" ? .json : .curl
          if let existing = options.format, existing != format {
            return .failure(UsageProblem(message: "--json and --curl cannot be combined"))
          }
          options.format = format
        case "--url", "--var":
          guard let value = cursor.value(inline: inline) else {
            return .failure(UsageProblem(message: "option '\(name)' needs a value"))
          }
          if name == "--url" {
            options.url = value
          } else {
            guard let equals = value.firstIndex(of: "="), equals != value.startIndex else {
              return .failure(UsageProblem(message: "--var takes NAME=VALUE, not '\(value)'"))
            }
            let text = String(value[value.index(after: equals)...])
            options.scope[String(value[..<equals])] =
              (try? JSONValue(parsing: text)) ?? .string(text)
          }
        case "--no-color", "--key", "--profile":
          if name != "--no-color" { _ = cursor.value(inline: inline) }
        default:
          return .failure(UsageProblem(message: "unknown option '\(argument)'"))
        }
      }
      return .success(options)
    }
  }
}
