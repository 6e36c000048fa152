import SNMLocal
import SNMShell
import SNMTestSupport
import Testing

@testable import snm

@Test func optionsTakeValuesAfterASpaceOrAnEqualsSign() throws {
  let invocation = try CommandLineParser.parse([
    "--url", "http://127.0.0.1:54330", "--key=abc", "--format=JSON", "--var", "n=3", "--echo",
    "--no-color", "-c", "tables", "--timeout", "2.5", "a.snm", "--", "--odd.snm",
  ])
  var expected = ShellOptions()
  expected.url = "http://127.0.0.1:54330"
  expected.key = "abc"
  expected.format = .json
  expected.variables = [.init(name: "n", value: "3")]
  expected.echo = true
  expected.noColor = true
  expected.timeout = 2.5
  #expect(invocation == .shell(expected, statements: ["tables"], files: ["a.snm", "--odd.snm"]))
}

@Test func helpVersionAndCompletion() throws {
  #expect(try CommandLineParser.parse(["--help"]) == .help(.shell))
  #expect(try CommandLineParser.parse(["-h"]) == .help(.shell))
  #expect(try CommandLineParser.parse(["--version"]) == .version)
  #expect(try CommandLineParser.parse(["completion", "zsh"]) == .completion(.zsh))
  #expect(try CommandLineParser.parse([]) == .shell(ShellOptions(), statements: [], files: []))
}

@Test(arguments: Command.allCases)
func everyCommandTakesHelp(_ command: Command) throws {
  let name = command == .shell ? [] : [command.rawValue]
  #expect(try CommandLineParser.parse(name + ["--help"]) == .help(command))
  #expect(try CommandLineParser.parse(name + ["-h"]) == .help(command))
  let help = HelpText.text(for: command)
  for option in CommandLineTable.options(for: command) where option.isListed(in: command) {
    #expect(
      help.contains(option.synopsis) || CommandDescription.of(command).takesShellOptions,
      "\(command) --help lacks \(option.name)")
  }
}

@Test func localStartTakesHelpAfterItsAction() throws {
  #expect(try CommandLineParser.parse(["local", "start", "--help"]) == .help(.local))
  #expect(try CommandLineParser.parse(["local", "help"]) == .help(.local))
}

@Test func subcommandsReadTheirOwnOptions() throws {
  #expect(
    try CommandLineParser.parse(["explain", "--json", "from t select *"])
      == .explain(
        ExplainCommand(format: .json, options: ShellOptions(), statements: ["from t select *"])))
  var local = LocalCommand(action: .start)
  local.options.port = 54330
  local.given = ["port"]
  #expect(try CommandLineParser.parse(["local", "start", "--port", "54330"]) == .local(local))
}

struct UsageCase: Sendable, CustomStringConvertible {
  let arguments: [String]
  let message: String
  var description: String { arguments.joined(separator: " ") }
}

@Test(arguments: [
  UsageCase(
    arguments: ["--fromat", "json"], message: "unknown option '--fromat' (did you mean '--format'?)"
  ),
  UsageCase(arguments: ["--bogus"], message: "unknown option '--bogus'"),
  UsageCase(arguments: ["-x"], message: "unknown option '-x'"),
  UsageCase(
    arguments: ["--format"],
    message: "option '--format' needs a value: table|expanded|json|ndjson|csv"),
  UsageCase(
    arguments: ["--format", "xml"],
    message: "unknown format 'xml': use table|expanded|json|ndjson|csv"),
  UsageCase(arguments: ["-c"], message: "option '-c' needs statements to run"),
  UsageCase(arguments: ["--echo=yes"], message: "option '--echo' takes no value"),
  UsageCase(
    arguments: ["--var", "novalue"], message: "option '--var' needs NAME=VALUE, not 'novalue'"),
  UsageCase(
    arguments: ["--var", "1x=2"],
    message: "'--var 1x=2': '1x' is not a variable name (letters, digits, _)"),
  UsageCase(
    arguments: ["--timeout", "-1"],
    message: "option '--timeout' needs a number of seconds above 0, not '-1'"),
  UsageCase(arguments: ["completion", "fish"], message: "usage: snm completion bash|zsh"),
  UsageCase(arguments: ["completion"], message: "usage: snm completion bash|zsh"),
  UsageCase(
    arguments: ["explain", "--json", "--curl", "x"], message: "--json and --curl cannot be combined"
  ),
  UsageCase(
    arguments: ["local"],
    message:
      "'snm local' needs a command: start, stop, restart, status, reset, destroy, list, serve, inbox, logs, functions or idp"
  ),
  UsageCase(
    arguments: ["local", "launch"],
    message:
      "unknown command 'launch' for 'snm local': start, stop, restart, status, reset, destroy, list, serve, inbox, logs, functions or idp"
  ),
  UsageCase(
    arguments: ["local", "start", "--port", "0"],
    message: "option '--port' needs a number from 1 to 65535, not '0'"),
  UsageCase(
    arguments: ["local", "status", "--nada"], message: "unknown option '--nada'"),
  UsageCase(
    arguments: ["local", "start", "--jobs", "2"], message: "unknown option '--jobs'"),
  UsageCase(
    arguments: ["local", "start", "--jwt-expiry", "0"],
    message: "option '--jwt-expiry' needs a number from 1 to 31536000, not '0'"),
  UsageCase(
    arguments: ["local", "start", "--refresh-reuse-interval", "x"],
    message: "option '--refresh-reuse-interval' needs a number from 0 to 86400, not 'x'"),
  UsageCase(arguments: ["session"], message: "'snm session' needs a command: token"),
  UsageCase(
    arguments: ["session", "tokens"], message: "unknown command 'tokens' for 'snm session': token"),
  UsageCase(
    arguments: ["session", "token", "x"],
    message: "unexpected argument 'x' after 'snm session token'"),
  UsageCase(arguments: ["gen"], message: "'snm gen' needs a language: swift"),
  UsageCase(
    arguments: ["gen", "kotlin"], message: "unknown language 'kotlin' for 'snm gen': swift"),
  UsageCase(
    arguments: ["gen", "swift", "more"], message: "unexpected argument 'more' after 'snm gen swift'"
  ),
])
func badCommandLinesSayWhatIsWrong(_ item: UsageCase) {
  #expect(throws: UsageError(item.message)) { try CommandLineParser.parse(item.arguments) }
}

@Test func helpTextMatchesItsGoldenFiles() {
  expectSnapshot(HelpText.text(for: .shell), named: "help.txt")
  for command in Command.allCases where command != .shell {
    expectSnapshot(HelpText.text(for: command), named: "help-\(command.rawValue).txt")
  }
}

@Test func completionScriptsNameEveryCommandAndOption() {
  for shell in CompletionScript.Shell.allCases {
    let script = CompletionScript.script(for: shell)
    for command in Command.allCases where command != .shell {
      #expect(script.contains(command.rawValue), "\(shell) completion lacks \(command)")
    }
    for option in CommandLineTable.options {
      #expect(script.contains(option.name), "\(shell) completion lacks \(option.name)")
    }
    for word in ["ndjson", "junit=", "serve"] {
      #expect(script.contains(word), "\(shell) completion lacks \(word)")
    }
  }
  expectSnapshot(CompletionScript.script(for: .bash), named: "completion.bash")
  expectSnapshot(CompletionScript.script(for: .zsh), named: "completion.zsh")
}

@Test func aVarStartingWithABraceOrBracketIsJSON() {
  #expect(ShellOptions.Variable(name: "d", value: #"{"id": 7}"#).json == ["id": 7])
  #expect(ShellOptions.Variable(name: "l", value: "[1,2]").json == [1, 2])
  #expect(ShellOptions.Variable(name: "n", value: "3").json == "3")
  #expect(ShellOptions.Variable(name: "b", value: "{not json").json == "{not json")
}

@Test func theParserSaysWhereItReadEachSecretValue() throws {
  // `-c --key`: a statement (a comment), not the option; the service key after `--service-key`;
  // `--key=` spelled in a statement is no option either; `--` ends the options.
  var places: [HiddenArguments.Place] = []
  let arguments = [
    "-c", "--key", "--service-key", "sb_secret_x", "-c", "--key=a comment", "--key=abc",
    "explain", "--", "--key", "y",
  ]
  _ = try CommandLineParser.parse(arguments, secretValues: &places)
  #expect(places == [.init(argument: 3, offset: 0), .init(argument: 6, offset: 6)])
  // Those read before a usage error are said too.
  places = []
  #expect(throws: UsageError.self) {
    try CommandLineParser.parse(["--service-key=k", "--fromat", "json"], secretValues: &places)
  }
  #expect(places == [.init(argument: 0, offset: 14)])
  #expect(CommandLineTable.options.filter(\.isSecret).map(\.name) == ["--key", "--service-key"])
}
