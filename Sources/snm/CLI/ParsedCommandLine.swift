import SNMLocal
import SNMQuery
import SNMShell

/// What the options and arguments read so far say, for any command (each uses its part).
struct ParsedCommandLine: Sendable {
  var command: Command
  var shell = ShellOptions()
  /// `-c STATEMENTS`, in order.
  var statements: [String] = []
  /// The arguments that are not options, in order (files, paths, statements, an action).
  var positionals: [String] = []
  var jobs = 1
  var reports: [TestReport] = []
  /// `snm test --verbose`, `--retry N`, `--shard K/N`, `--timings FILE`.
  var verbose = false
  var retries = 0
  var shard: TestShard?
  var timings: String?
  /// `snm test|check --follow`.
  var follow = false
  var format: ExplainFormat?
  var local = LocalCommand(action: .status)
  /// `snm gen swift`'s own options.
  var gen = GenCommand()
  var help = false
  var version = false
  /// `snm listen --count N`, `--for DURATION`.
  var listenCount: Int?
  var listenMilliseconds: Int?
  /// `snm realtime check --dir DIR`.
  var realtimeDirectory: String?

  /// `--json` or `--curl`; the two cannot be combined.
  mutating func explainFormat(_ chosen: ExplainFormat) throws(UsageError) {
    if let format, format != chosen {
      throw UsageError("--json and --curl cannot be combined")
    }
    format = chosen
  }

  /// What to run, once every argument has been read.
  func invocation() throws(UsageError) -> Invocation {
    if help { return .help(command) }
    switch command {
    case .shell:
      if version { return .version }
      return .shell(shell, statements: statements, files: positionals)
    case .explain:
      return .explain(ExplainCommand(format: format, options: shell, statements: positionals))
    case .test, .check:
      guard !positionals.isEmpty else {
        throw UsageError(
          "'snm \(command.rawValue)' needs .snm files or directories to \(command.rawValue)")
      }
      if command == .check {
        return .check(paths: positionals, options: shell, follow: follow)
      }
      var configuration = TestRunner.Configuration(
        options: shell, paths: positionals, jobs: jobs, reports: reports)
      configuration.verbose = verbose
      configuration.retries = retries
      configuration.shard = shard
      configuration.timings = timings
      configuration.follow = follow
      if timings != nil && shard == nil {
        throw UsageError("option '--timings' balances '--shard K/N': give both")
      }
      return .test(configuration)
    case .report:
      guard positionals.first == "merge" else {
        throw UsageError("'snm report' needs a command: merge")
      }
      let inputs = Array(positionals.dropFirst())
      guard !inputs.isEmpty else {
        throw UsageError("'snm report merge' needs the JSON reports to merge")
      }
      guard !reports.isEmpty else {
        throw UsageError(
          "'snm report merge' needs somewhere to write: --junit FILE or --report KIND=FILE")
      }
      return .mergeReports(inputs, into: reports)
    case .local:
      let actions = LocalCommand.Action.allCases.map(\.rawValue)
      let list = actions.dropLast().joined(separator: ", ") + " or " + (actions.last ?? "")
      guard let name = positionals.first else {
        throw UsageError("'snm local' needs a command: \(list)")
      }
      if name == "help" { return .help(.local) }
      guard let action = LocalCommand.Action(rawValue: name) else {
        throw UsageError("unknown command '\(name)' for 'snm local': \(list)")
      }
      var local = local
      var extras = positionals.dropFirst()
      if action == .inbox, let address = extras.first {
        local.inboxAddress = address
        extras = extras.dropFirst()
      }
      if action == .logs || action == .functions || action == .idp {
        local.words = try LocalWords.check(action, Array(extras))
        extras = []
      }
      if action == .idp {
        guard local.testToken.provider == "apple" else {
          throw UsageError("'snm local idp token' needs --provider apple (the only test issuer)")
        }
        guard let email = local.testToken.email, !email.isEmpty else {
          throw UsageError("'snm local idp token' needs --email ADDRESS")
        }
      } else if local.testToken != TestTokenRequest() {
        throw UsageError(
          "options '--provider', '--email', '--nonce', '--audience', '--issuer', '--subject' "
            + "and '--expires-in' are for 'snm local idp token'")
      }
      if let extra = extras.first {
        throw UsageError("unexpected argument '\(extra)' after 'snm local \(name)'")
      }
      if (local.prune || local.pruneUnknown) && action != .list {
        throw UsageError("options '--prune' and '--unknown' are for 'snm local list'")
      }
      if local.pruneUnknown && !local.prune {
        throw UsageError("option '--unknown' goes with '--prune'")
      }
      local.action = action
      return .local(local)
    case .session:
      // `snm session token` is `snm -c 'session token'`, for `$(...)` in another tool's command.
      try ValueParsing.onlyWord("token", in: positionals, after: "session", naming: "command")
      return .shell(shell, statements: ["session token"], files: [])
    case .listen:
      guard !positionals.isEmpty else {
        throw UsageError(
          "'snm listen' needs what to listen to: a table (snm listen todos) or a channel "
            + "(snm listen channel room1)")
      }
      let stream = RealtimeStream(
        words: positionals.joined(separator: " "), count: listenCount,
        milliseconds: listenMilliseconds)
      return .listen(shell, stream)
    case .realtime:
      guard positionals.first == "check" else {
        throw UsageError("'snm realtime' needs a command: check TABLE")
      }
      guard positionals.count == 2 else {
        throw UsageError("'snm realtime check' needs one table: snm realtime check todos")
      }
      return .realtimeCheck(
        RealtimeCheckCommand(
          table: positionals[1], directory: realtimeDirectory, options: shell))
    case .gen:
      return .gen(try gen.complete(language: positionals, options: shell))
    case .completion:
      guard positionals.count == 1, let shell = CompletionScript.Shell(rawValue: positionals[0])
      else { throw UsageError("usage: snm completion bash|zsh") }
      return .completion(shell)
    }
  }
}

/// What the command line asks snm to do.
enum Invocation: Sendable, Equatable {
  /// The shell, statements after `-c`, or script files.
  case shell(ShellOptions, statements: [String], files: [String])
  case explain(ExplainCommand)
  case test(TestRunner.Configuration)
  case check(paths: [String], options: ShellOptions, follow: Bool)
  /// `snm report merge A.json B.json --junit all.xml`.
  case mergeReports([String], into: [TestReport])
  case local(LocalCommand)
  /// `snm gen swift`.
  case gen(GenCommand)
  /// `snm listen todos --count 3`.
  case listen(ShellOptions, RealtimeStream)
  /// `snm realtime check todos`.
  case realtimeCheck(RealtimeCheckCommand)
  case completion(CompletionScript.Shell)
  /// `--help` for a command.
  case help(Command)
  case version
}
