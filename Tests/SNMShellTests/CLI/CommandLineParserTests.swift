import SNMTestSupport
import Testing

@testable import SNMShell

@Test func optionsTakeValuesAfterASpaceOrAnEqualsSign() throws {
  let invocation = try CommandLineParser.parse([
    "--url", "http://127.0.0.1:54330", "--key=abc", "--format=JSON", "--var", "n=3", "--echo",
    "--no-color", "-c", "tables", "--timeout", "2.5", "a.snm", "--", "--odd.snm",
  ])
  var expected = CommandLineOptions()
  expected.url = "http://127.0.0.1:54330"
  expected.key = "abc"
  expected.format = .json
  expected.variables = [.init(name: "n", value: "3")]
  expected.echo = true
  expected.noColor = true
  expected.commands = ["tables"]
  expected.timeout = 2.5
  expected.files = ["a.snm", "--odd.snm"]
  #expect(invocation == .run(expected))
}

@Test func helpVersionAndCompletion() throws {
  #expect(try CommandLineParser.parse(["--help"]) == .help)
  #expect(try CommandLineParser.parse(["-h"]) == .help)
  #expect(try CommandLineParser.parse(["--version"]) == .version)
  #expect(try CommandLineParser.parse(["completion", "zsh"]) == .completion(.zsh))
  #expect(try CommandLineParser.parse([]) == .run(CommandLineOptions()))
}

@Test func subcommandsKeepTheirOwnArguments() throws {
  #expect(
    try CommandLineParser.parse(["explain", "--json", "from t select *"])
      == .subcommand("explain", ["--json", "from t select *"]))
  #expect(try CommandLineParser.parse(["local", "start"]) == .subcommand("local", ["start"]))
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
])
func badCommandLinesSayWhatIsWrong(_ item: UsageCase) {
  #expect(throws: UsageError(item.message)) { try CommandLineParser.parse(item.arguments) }
}

@Test func helpTextMatchesItsGoldenFile() {
  expectSnapshot(HelpText.usage, named: "help.txt")
}

@Test func completionScriptsNameEverySubcommandAndOption() {
  for shell in CompletionScript.Shell.allCases {
    let script = CompletionScript.script(for: shell)
    for word in ["explain", "local", "--format", "--profile", "ndjson", "--continue-on-error"] {
      #expect(script.contains(word), "\(shell) completion lacks \(word)")
    }
  }
  expectSnapshot(CompletionScript.script(for: .bash), named: "completion.bash")
  expectSnapshot(CompletionScript.script(for: .zsh), named: "completion.zsh")
}
