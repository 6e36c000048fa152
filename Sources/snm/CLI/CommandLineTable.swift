import Foundation
import SNMLocal
import SNMLocalAuth
import SNMQuery
import SNMShell

/// Every command and option of snm's command line, declared once: the parser reads argv with it,
/// and `--help` and the bash and zsh completion scripts are generated from it.
enum CommandLineTable {
  /// The options, in the order `--help` lists them.
  static let options: [CommandLineOption] =
    explainOptions + projectOptions + outputOptions
    + scriptOptions + testOptions + listenOptions + localOptions + GenCommand.options
    + generalOptions

  /// The options `command` accepts, in table order.
  static func options(for command: Command) -> [CommandLineOption] {
    options.filter { $0.commands.contains(command) }
  }

  /// The option spelled `name` that `command` accepts.
  static func option(named name: String, for command: Command) -> CommandLineOption? {
    options.first { $0.commands.contains(command) && $0.names.contains(name) }
  }

  static let projectOptions: [CommandLineOption] = [
    CommandLineOption(
      "--url", value: "URL", for: Command.running.union([.explain, .gen]),
      help: "the project URL (else $SUPABASE_URL)"
    ) { parsed, value throws(UsageError) in parsed.shell.url = value },
    CommandLineOption(
      "--key", value: "KEY", secret: true, for: Command.running.union([.explain, .gen]),
      help: "the project API key, sb_publishable_/sb_secret_ or a legacy\n"
        + "JWT (else $SUPABASE_PUBLISHABLE_KEY, $SUPABASE_ANON_KEY,\n"
        + "$SUPABASE_SECRET_KEY, $SUPABASE_SERVICE_ROLE_KEY)",
      unlisted: [.explain]
    ) { parsed, value throws(UsageError) in parsed.shell.key = value },
    CommandLineOption(
      "--service-key", value: "KEY", secret: true, for: Command.running.union([.gen]),
      help: "the service key for admin ..., inbox and as service (else\n"
        + "$SUPABASE_SERVICE_ROLE_KEY, $SUPABASE_SECRET_KEY, a profile's\n"
        + "service_key; the local project's own)"
    ) { parsed, value throws(UsageError) in parsed.shell.serviceKey = value },
    CommandLineOption(
      "--profile", value: "NAME", for: Command.running.union([.explain, .gen]),
      help: "a project from $XDG_CONFIG_HOME/snm/config.json (beats the variables)",
      unlisted: [.explain]
    ) { parsed, value throws(UsageError) in parsed.shell.profile = value },
    CommandLineOption(
      "--local", for: Command.running.union([.gen]),
      help: "the local project (snm local start's, http://127.0.0.1:54321), started\n"
        + "on first use; needed by snm test and runs under CI when nothing else\n"
        + "names a project"
    ) { parsed, _ throws(UsageError) in parsed.shell.local = true },
  ]

  static let outputOptions: [CommandLineOption] = [
    CommandLineOption(
      "--format", value: "FORMAT", valueHint: ": \(OutputFormat.names)", for: Command.running,
      help: "table, expanded, json, ndjson or csv",
      completion: .words(OutputFormat.allCases.map(\.rawValue))
    ) { parsed, value throws(UsageError) in
      guard let format = OutputFormat(rawValue: value.lowercased()) else {
        throw UsageError("unknown format '\(value)': use \(OutputFormat.names)")
      }
      parsed.shell.format = format
    },
    CommandLineOption(
      "--csv-crlf", for: Command.running,
      help: "csv lines end in CRLF (RFC 4180), not LF as psql and pandas write"
    ) { parsed, _ throws(UsageError) in parsed.shell.csvCRLF = true },
    CommandLineOption(
      "--var", value: "NAME=VALUE", valueHint: ": NAME=VALUE",
      for: Command.running.union([.explain]),
      help: "set $NAME for the statements (a VALUE starting { or [ is JSON)"
    ) { parsed, value throws(UsageError) in
      parsed.shell.variables.append(try ValueParsing.variable(value))
    },
    CommandLineOption(
      "--echo", for: Command.running, help: "print each statement before its result"
    ) { parsed, _ throws(UsageError) in parsed.shell.echo = true },
    CommandLineOption("--quiet", for: Command.running, help: "print only failures") {
      parsed, _ throws(UsageError) in parsed.shell.quiet = true
    },
    CommandLineOption(
      "--continue-on-error", for: Command.running, help: "keep going after a failed statement"
    ) { parsed, _ throws(UsageError) in parsed.shell.continueOnError = true },
    CommandLineOption(
      "--timeout", value: "SECONDS", valueHint: ": SECONDS", for: Command.running.union([.gen]),
      help: "give up on a request after this long (the whole request)"
    ) { parsed, value throws(UsageError) in
      guard let seconds = Double(value), seconds > 0, seconds.isFinite else {
        throw UsageError("option '--timeout' needs a number of seconds above 0, not '\(value)'")
      }
      parsed.shell.timeout = seconds
    },
    CommandLineOption(
      "--cacert", value: "FILE", valueHint: ": FILE (PEM)", for: Command.running.union([.gen]),
      help: "trust these CA certificates (PEM) for https (else $SSL_CERT_FILE)",
      completion: .files
    ) { parsed, value throws(UsageError) in parsed.shell.caCertificates = value },
    CommandLineOption(
      "--no-color", for: Command.running.union([.explain]),
      help: "never colour the output (also: NO_COLOR=1)",
      unlisted: [.explain]
    ) { parsed, _ throws(UsageError) in parsed.shell.noColor = true },
  ]

  static let scriptOptions: [CommandLineOption] = [
    CommandLineOption(
      "-c", value: "STATEMENTS", missingValue: "option '-c' needs statements to run",
      for: [.shell], help: "run STATEMENTS and exit"
    ) { parsed, value throws(UsageError) in parsed.statements.append(value) },
    CommandLineOption(
      "--session", value: "MODE", valueHint: ": own|shared", for: [.shell],
      help: "script files start signed out in a session of their own (own, the\n"
        + "default) or use and keep the saved one (shared)",
      completion: .words(["own", "shared"])
    ) { parsed, value throws(UsageError) in
      switch value.lowercased() {
      case "own": parsed.shell.sharedSession = false
      case "shared": parsed.shell.sharedSession = true
      default: throw UsageError("option '--session' needs own or shared, not '\(value)'")
      }
    },
    CommandLineOption(
      "--no-snmrc", aliases: ["-X"], for: [.shell],
      help: "do not read the startup file, $XDG_CONFIG_HOME/snm/snmrc (also -X)"
    ) { parsed, _ throws(UsageError) in parsed.shell.skipStartupFile = true },
  ]

  static let testOptions: [CommandLineOption] = [
    wholeNumber(
      "--jobs", valueHint: ": N", for: [.test],
      help: "run N files at a time (the output and reports stay in file order)", in: 1...64
    ) { $0.jobs = $1 },
    CommandLineOption(
      "--report", value: "KIND=PATH", valueHint: ": KIND=PATH", for: [.test, .report],
      help: "write a report: junit (JUnit XML), tap (TAP 13) or json; repeatable",
      completion: .words(TestReport.Kind.allCases.map { "\($0.rawValue)=" })
    ) { parsed, value throws(UsageError) in parsed.reports.append(try TestReport.parse(value)) },
    CommandLineOption(
      "--verbose", aliases: ["-v"], for: [.test],
      help: "print each request and answer under its file (keys and tokens masked)"
    ) { parsed, _ throws(UsageError) in parsed.verbose = true },
    wholeNumber(
      "--retry", valueHint: ": N", for: [.test],
      help: "run a failed file marked '# snm: idempotent' up to N more times", in: 0...10
    ) { $0.retries = $1 },
    CommandLineOption(
      "--shard", value: "K/N", valueHint: ": K/N", for: [.test],
      help: "run the K-th of N stable shares of the files (a CI matrix)"
    ) { parsed, value throws(UsageError) in parsed.shard = try TestShard.parse(value) },
    CommandLineOption(
      "--timings", value: "REPORT", valueHint: ": REPORT.json", for: [.test],
      help: "balance the shards by the times of an earlier JSON report", completion: .files
    ) { parsed, value throws(UsageError) in parsed.timings = value },
    CommandLineOption(
      "--follow", for: [.test, .check],
      help: "walk symbolic links to folders under a named folder (each folder once)"
    ) { parsed, _ throws(UsageError) in parsed.follow = true },
    CommandLineOption(
      "--junit", value: "FILE", valueHint: ": FILE", for: [.report],
      help: "write the merged report as JUnit XML (same as --report junit=FILE)",
      completion: .files
    ) { parsed, value throws(UsageError) in
      parsed.reports.append(TestReport(kind: .junit, path: value))
    },
  ]

  static let listenOptions: [CommandLineOption] = [
    wholeNumber(
      "--count", valueHint: ": N", for: [.listen], help: "stop after N events (exit 0)",
      in: 1...1_000_000
    ) { $0.listenCount = $1 },
    CommandLineOption(
      "--for", value: "DURATION", valueHint: ": DURATION", for: [.listen],
      help: "stop after this long: 500ms, 30s, 10m (exit 0)"
    ) { parsed, value throws(UsageError) in
      guard let milliseconds = DurationValue.milliseconds(of: value), milliseconds > 0 else {
        throw UsageError(
          "option '--for' needs a duration such as 500ms, 30s or 10m, not '\(value)'")
      }
      parsed.listenMilliseconds = milliseconds
    },
    CommandLineOption(
      "--json", for: [.listen], help: "one JSON object a line (the same as --format ndjson)"
    ) { parsed, _ throws(UsageError) in parsed.shell.format = .ndjson },
    CommandLineOption(
      "--dir", value: "DIR", for: [.realtime],
      help: "the local project in DIR (its database is read as well)", completion: .directories
    ) { parsed, value throws(UsageError) in
      parsed.realtimeDirectory = ValueParsing.absolute(value)
    },
  ]

  static let explainOptions: [CommandLineOption] = [
    CommandLineOption(
      "--json", for: [.explain], help: "one spec §6 JSON object per statement"
    ) { parsed, _ throws(UsageError) in try parsed.explainFormat(.json) },
    CommandLineOption(
      "--curl", for: [.explain],
      help: "a curl command line ($SUPABASE_ANON_KEY and $TOKEN stand for the\nkey and token)"
    ) { parsed, _ throws(UsageError) in try parsed.explainFormat(.curl) },
  ]

  static let localOptions: [CommandLineOption] = [
    localOption(
      "--dir", value: "DIR",
      help: "where the project keeps its data (default: $XDG_DATA_HOME/snm/local;\n"
        + "for a project folder, snm/projects/<name>-<hash> there)",
      completion: .directories
    ) { options, value throws(UsageError) in options.dataDir = ValueParsing.absolute(value) },
    localOption(
      "--project", value: "DIR",
      help: "the folder holding supabase/ (config.toml, migrations, seed.sql); default:\n"
        + "the current folder when it holds one",
      completion: .directories
    ) { options, value throws(UsageError) in
      options.projectDir = try ValueParsing.folder(value, option: "--project")
    },
    localNumber(
      "--port", value: "PORT", help: "the gateway's port on 127.0.0.1 (54321)", in: 1...65535
    ) { $0.port = $1 },
    localOption(
      "--migrations", value: "DIR",
      help: "apply these *.sql files in name order instead of the demo schema",
      completion: .directories
    ) { options, value throws(UsageError) in
      options.migrationsDir = try ValueParsing.folder(value, option: "--migrations")
    },
    localNumber("--jwt-expiry", help: "access tokens last this long (3600)", in: 1...31_536_000) {
      $0.jwtExpiry = $1
    },
    localOption(
      "--jwt-alg", value: "ALG", valueHint: ": HS256|ES256|RS256",
      help: "sign user tokens with HS256 (the secret) or a key pair: ES256, RS256",
      completion: .words(["HS256", "ES256", "RS256"])
    ) { options, value throws(UsageError) in
      let name = value.uppercased()
      guard ["HS256", "ES256", "RS256"].contains(name) else {
        throw UsageError("option '--jwt-alg': '\(value)' is not HS256, ES256 or RS256")
      }
      options.jwtAlgorithm = name
    },
    CommandLineOption(
      "--signing-keys", value: "FILE", valueHint: ": FILE (JWK set)", for: [.local],
      help: "sign user tokens with this JSON array of private JWKs (the Supabase CLI's\n"
        + "signing_keys_path; --no-signing-keys: a key of the project's own)",
      completion: .files
    ) { parsed, value throws(UsageError) in
      parsed.local.options.signingKeysFile = ValueParsing.absolute(value)
    },
    CommandLineOption(
      "--no-signing-keys", for: [.local], help: "", unlisted: [.local]
    ) { parsed, _ throws(UsageError) in parsed.local.options.signingKeysFile = "" },
    localNumber(
      "--refresh-reuse-interval",
      help: "a just-used refresh token still answers for this long (10)", in: 0...86_400
    ) { $0.refreshReuseInterval = $1 },
    localOption(
      "--auth-rate-limit", value: "NAME=N", valueHint: ": NAME=N",
      help: "one of GoTrue's per-address Auth limits, e.g. token_refresh=150 or\n"
        + "token_verifications=30 (0: none; repeatable)",
      completion: .words(AuthRateLimits.names.map { $0 + "=" })
    ) { options, value throws(UsageError) in
      var limits = AuthRateLimits()
      do throws(AuthRateLimitError) {
        try limits.set(value)
      } catch {
        throw UsageError("option '--auth-rate-limit': \(error.message)")
      }
      options.authRateLimitChanges.append(value)
    },
    authSwitch(
      "confirm_email", on: true,
      help: "new users confirm their e-mail first (--no-confirm-email: not)"),
    authSwitch("confirm_email", on: false, help: nil),
    authSwitch("signup", on: false, help: "no new users sign up (--signup: they may again)"),
    authSwitch("signup", on: true, help: nil),
    authSwitch("anonymous", on: false, help: "no anonymous sign-ins (--anonymous: allowed again)"),
    authSwitch("anonymous", on: true, help: nil),
    authSwitch(
      "secure_password_change", on: true,
      help: "a password change needs a recent sign-in or a reauthentication code"),
    authSwitch("secure_password_change", on: false, help: nil),
    authSwitch(
      "phone_signup", on: true,
      help: "users sign up and in with a phone number; texts go to the inbox"),
    authSwitch("phone_signup", on: false, help: nil),
    authSwitch(
      "confirm_phone", on: true,
      help: "new phone users verify the texted code first (--no-confirm-phone: not)"),
    authSwitch("confirm_phone", on: false, help: nil),
    authSwitch(
      "apple", on: true,
      help: "users sign in with Apple by id_token, checked against the project's test\n"
        + "issuer (snm local idp token; --no-apple: off)"),
    authSwitch("apple", on: false, help: nil),
    authSwitch(
      "github", on: true,
      help: "users sign in with GitHub's OAuth redirect flow, the project's test issuer\n"
        + "standing in for GitHub (login provider github; --no-github: off)"),
    authSwitch("github", on: false, help: nil),
    authSwitch(
      "oauth_server", on: true,
      help: "the OAuth 2.1 server's admin client routes answer (/admin/oauth/clients;\n"
        + "--no-oauth-server: off)"),
    authSwitch("oauth_server", on: false, help: nil),
    idpOption("--provider", value: "NAME", help: "idp token: the provider (apple)") {
      $0.provider = $1
    },
    idpOption("--email", value: "ADDRESS", help: "idp token: the address the id_token names") {
      $0.email = $1
    },
    idpOption("--nonce", value: "RAW", help: "idp token: the raw nonce (the token has its SHA-256)")
    {
      $0.nonce = $1
    },
    idpOption("--audience", value: "AUD", help: nil) { $0.audience = $1 },
    idpOption("--issuer", value: "ISS", help: nil) { $0.issuer = $1 },
    idpOption("--subject", value: "SUB", help: nil) { $0.subject = $1 },
    wholeNumber(
      "--expires-in", value: "SECONDS", for: [.local], help: "", unlisted: [.local],
      in: 0...86_400
    ) { $0.local.testToken.expiresIn = $1 },
    CommandLineOption(
      "--sms-test-otp", value: "PHONE=CODE", valueHint: ": PHONE=CODE", for: [.local],
      help: "this number is texted nothing and its code is always CODE (repeatable;\n"
        + "--no-sms-test-otp forgets them)"
    ) { parsed, value throws(UsageError) in
      guard LocalProjectOptions.testOTP(value) != nil else {
        throw UsageError(
          "option '--sms-test-otp': '\(value)' is not PHONE=CODE, a phone number (E.164) and a "
            + "code of 6 to 10 digits")
      }
      parsed.local.options.smsTestOTPChanges.append(value)
    },
    CommandLineOption(
      "--no-sms-test-otp", for: [.local], help: "", unlisted: [.local]
    ) { parsed, _ throws(UsageError) in parsed.local.options.smsTestOTPChanges.append("") },
    localOption(
      "--file-size-limit", value: "SIZE",
      help: "the most one Storage object may hold: bytes, 500MB, 50MiB, 1GB (50MiB)"
    ) { options, value throws(UsageError) in
      guard let bytes = LocalProjectOptions.parseSize(value), bytes > 0 else {
        throw UsageError(
          "option '--file-size-limit': '\(value)' is not a size such as 50MiB, 500MB or 1GB")
      }
      options.storageFileSizeLimit = bytes
    },
    CommandLineOption(
      "--json", for: [.local], help: "print one JSON object (with the keys) instead of the report"
    ) { parsed, _ throws(UsageError) in parsed.local.json = true },
    CommandLineOption(
      "--yes", for: [.local], help: "destroy and list --prune delete without asking"
    ) { parsed, _ throws(UsageError) in parsed.local.yes = true },
    CommandLineOption(
      "--prune", for: [.local],
      help: "list: delete the clusters of stopped projects whose folder is gone"
    ) { parsed, _ throws(UsageError) in parsed.local.prune = true },
    CommandLineOption(
      "--unknown", for: [.local],
      help: "list --prune: also stopped clusters made before snm recorded their folder"
    ) { parsed, _ throws(UsageError) in parsed.local.pruneUnknown = true },
  ]

  /// An option whose value is a whole number in `range`; any other value is refused naming the
  /// option and the range (`option '--jobs' needs a number from 1 to 64, not 'x'`).
  static func wholeNumber(
    _ flag: String, value: String = "N", valueHint: String? = nil, for commands: Set<Command>,
    help: String, unlisted: Set<Command> = [], in range: ClosedRange<Int>,
    set: @escaping @Sendable (inout ParsedCommandLine, Int) -> Void
  ) -> CommandLineOption {
    CommandLineOption(
      flag, value: value, valueHint: valueHint, for: commands, help: help, unlisted: unlisted
    ) { parsed, text throws(UsageError) in
      set(&parsed, try ValueParsing.wholeNumber(text, option: flag, in: range))
    }
  }

  /// A `snm local` option that sets the project's options and is recorded as given under its
  /// name without the dashes (`--port` as `port`): it overrides what the project has saved.
  static func localOption(
    _ flag: String, value: String, valueHint: String? = nil, help: String,
    completion: CommandLineOption.Completion = .none,
    set: @escaping @Sendable (inout LocalProjectOptions, String) throws(UsageError) -> Void
  ) -> CommandLineOption {
    CommandLineOption(
      flag, value: value, valueHint: valueHint, for: [.local], help: help, completion: completion
    ) { parsed, text throws(UsageError) in
      try set(&parsed.local.options, text)
      parsed.local.given.insert(String(flag.dropFirst(2)))
    }
  }

  /// A `snm local` option whose value is a whole number in `range`, set in the project's options
  /// and recorded as given.
  static func localNumber(
    _ flag: String, value: String = "SECONDS", help: String, in range: ClosedRange<Int>,
    set: @escaping @Sendable (inout LocalProjectOptions, Int) -> Void
  ) -> CommandLineOption {
    localOption(flag, value: value, help: help) { options, text throws(UsageError) in
      set(&options, try ValueParsing.wholeNumber(text, option: flag, in: range))
    }
  }

  /// An option of `snm local idp token` (unlisted without `help`).
  static func idpOption(
    _ flag: String, value: String, help: String?,
    set: @escaping @Sendable (inout TestTokenRequest, String) -> Void
  ) -> CommandLineOption {
    CommandLineOption(
      flag, value: value, for: [.local], help: help ?? "", unlisted: help == nil ? [.local] : []
    ) { parsed, text throws(UsageError) in set(&parsed.local.testToken, text) }
  }

  /// The flag that turns Auth switch `name` on or off (`AuthSwitches.flag`); without `help` it is
  /// left out of `--help` (the listed flag's help names it).
  static func authSwitch(_ name: String, on: Bool, help: String?) -> CommandLineOption {
    CommandLineOption(
      AuthSwitches.flag(name, on: on), for: [.local], help: help ?? "",
      unlisted: help == nil ? [.local] : []
    ) { parsed, _ throws(UsageError) in
      parsed.local.options.authSwitches[name] = on
    }
  }

  static let generalOptions: [CommandLineOption] = [
    CommandLineOption(
      "--help", aliases: ["-h"], for: Set(Command.allCases), help: "print this help",
      unlisted: Set(Command.allCases)
    ) { parsed, _ throws(UsageError) in parsed.help = true },
    CommandLineOption(
      "--version", for: [.shell], help: "print snm's version", unlisted: [.shell]
    ) { parsed, _ throws(UsageError) in parsed.version = true },
  ]
}
