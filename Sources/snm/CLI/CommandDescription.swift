/// What `--help` says about a command besides its options: how it is called, what it does.
struct CommandDescription: Sendable {
  /// One usage line and what it does, as `snm --help` lists them.
  struct Usage: Sendable {
    var synopsis: String
    var summary: String
  }

  var command: Command
  /// Its lines in `snm --help`'s USAGE.
  var usages: [Usage]
  /// The words after the name, for `usage:` lines (`[OPTIONS] PATH...`).
  var synopsis: String
  /// What `snm <command> --help` says before the options.
  var details: String
  /// Whether it also takes the shell's OPTIONS (`snm test`, `snm check`).
  var takesShellOptions: Bool
  /// What `snm <command> --help` says after the options.
  var footer: String?
  /// The actions or words of its first argument (`local start`, `completion bash`), for help and
  /// completion.
  var firstArgument: [(word: String, summary: String)]
  /// Whether its arguments are script files and directories.
  var takesScripts: Bool

  /// `usage: snm test [OPTIONS] PATH...`.
  var usageLine: String { "usage: \(command.invocation) \(synopsis)" }
}

extension CommandDescription {
  static func of(_ command: Command) -> CommandDescription {
    all.first { $0.command == command } ?? all[0]
  }

  static let all: [CommandDescription] = [
    CommandDescription(
      command: .shell,
      usages: [
        Usage(synopsis: "snm [OPTIONS]", summary: "the shell (reads statements from a pipe too)"),
        Usage(synopsis: "snm [OPTIONS] FILE.snm [FILE.snm ...]", summary: "run scripts in order"),
        Usage(
          synopsis: "snm [OPTIONS] -c 'STATEMENTS'",
          summary: "run statements (separate them with ';')"),
      ],
      synopsis: "[OPTIONS] [FILE.snm ...]", details: "", takesShellOptions: false, footer: nil,
      firstArgument: [], takesScripts: true),
    CommandDescription(
      command: .explain,
      usages: [
        Usage(
          synopsis: "snm explain [--json|--curl] 'STATEMENT'",
          summary: "print the request, send nothing")
      ],
      synopsis: "[--json | --curl] [--url URL] [--var NAME=VALUE]... 'STATEMENT'...",
      details: "Prints the request each statement would send; sends nothing (no server, no\n"
        + "session). The URL is --url, else $SUPABASE_URL, else http://127.0.0.1:54321.",
      takesShellOptions: false, footer: nil, firstArgument: [], takesScripts: false),
    CommandDescription(
      command: .test,
      usages: [
        Usage(
          synopsis: "snm test [OPTIONS] PATH...",
          summary: "run .snm files as tests (see snm test --help)")
      ],
      synopsis: "[OPTIONS] PATH...",
      details: """
        Runs each .snm file (directories: every *.snm under them, in name order) as a test, with
        its own variables and its own session (signed out at the start, never saved). Prints its
        target first ('target: URL (publishable key, from SUPABASE_URL)'), PASS or FAIL per file in
        the order named, then a line 'N passed, M failed'. With nothing naming a project (--url,
        SUPABASE_URL, --profile, --local) it stops with exit 2.
        """,
      takesShellOptions: true,
      footer: """
        Exit code: 0 when every file passed, else the highest exit code of a failed file (1 a
        statement or expectation failed, 2 a parse error, 3 the project could not be reached,
        4 a relay error invoking an edge function); 130/143 when interrupted.
        """,
      firstArgument: [], takesScripts: true),
    CommandDescription(
      command: .check,
      usages: [Usage(synopsis: "snm check PATH...", summary: "parse and check, offline")],
      synopsis: "[OPTIONS] PATH...",
      details: """
        Parses and checks .snm files (directories: every *.snm under them; '-': standard input)
        and the files their 'run' statements name, without a network. Prints the first 100 errors
        (and how many more); exit code 2 when there is one.
        """,
      takesShellOptions: true, footer: nil, firstArgument: [], takesScripts: true),
    CommandDescription(
      command: .local,
      usages: [
        Usage(
          synopsis:
            "snm local start|stop|restart|status|reset|destroy|list|serve|inbox|logs|functions|idp",
          summary: "the local project")
      ],
      synopsis:
        "start|stop|restart|status|reset|destroy|list|serve|inbox|logs|functions|idp [OPTIONS]",
      details:
        "The local project: Postgres and snm's REST, Auth, Storage and Functions gateway on 127.0.0.1.",
      takesShellOptions: false, footer: nil,
      firstArgument: [
        ("start", "create the project on first use, start Postgres and the gateway"),
        ("stop", "stop the gateway and Postgres"),
        ("restart", "stop it if it runs, start it with the settings given"),
        ("status", "where it is and whether it runs (exit 3 when stopped; --json: with the keys)"),
        ("reset", "drop the database, apply the migrations again, start"),
        ("destroy", "stop it and delete its data, after a confirmation (--yes: none)"),
        (
          "list", "every local project on this machine (--prune: delete those whose folder is gone)"
        ),
        ("serve", "run the gateway in the foreground (what start runs)"),
        ("inbox", "the mails Auth would have sent, newest first: inbox [ADDRESS] [--json]"),
        ("logs", "what the Edge Functions printed: logs functions [NAME]"),
        ("functions", "new NAME: write supabase/functions/NAME/index.ts and its config entry"),
        (
          "idp",
          "token --provider apple --email ADDRESS [--nonce RAW]: an id_token only this\n"
            + "project accepts (sign in with Apple offline; start it with --apple)"
        ),
      ],
      takesScripts: false),
    CommandDescription(
      command: .report,
      usages: [
        Usage(
          synopsis: "snm report merge A.json B.json... --junit FILE",
          summary: "join the JSON reports of shards into one")
      ],
      synopsis: "merge REPORT.json... [--junit FILE] [--report KIND=FILE]...",
      details: """
        Joins the JSON reports that 'snm test --shard K/N --report json=PATH' wrote on each
        machine into one report (files in the order of the reports named), written as JUnit,
        TAP or JSON, and prints 'N passed, M failed'. Exit code 1 when a file failed.
        """,
      takesShellOptions: false, footer: nil,
      firstArgument: [("merge", "join JSON reports into one")], takesScripts: false),
    CommandDescription(
      command: .session,
      usages: [
        Usage(
          synopsis: "snm session token",
          summary: "print the signed-in user's access token (for curl)")
      ],
      synopsis: "token [OPTIONS]",
      details: """
        Prints the saved session's access token alone on a line, refreshed first when it expires
        within 30 s, for another client:
          curl -H "Authorization: Bearer $(snm session token)" ...
        The same as snm -c 'session token'. Exit code 3 when no one is signed in.
        """,
      takesShellOptions: true, footer: nil,
      firstArgument: [("token", "the access token, for another client")], takesScripts: false),
    CommandDescription(
      command: .listen,
      usages: [
        Usage(
          synopsis: "snm listen TABLE|channel NAME [--count N] [--for 30s]",
          summary: "print Realtime events as they arrive, one a line")
      ],
      synopsis: "TABLE [KIND] [where ...] | channel NAME [private] [OPTIONS]",
      details: """
        Listens as the 'listen' statement does (the words after it are the statement's) and
        prints each event on standard output as it arrives, one a line: JSON with --json (or
        --format json|ndjson), else '<subscription> <kind> <fields>'. Standard error says
        'snm: listening to NAME' once the subscription is live (a write after it is seen).
          snm listen todos insert --json | jq .record
          snm listen channel room1 --count 1 --for 30s
        """,
      takesShellOptions: true,
      footer: """
        Exit code: 0 after --count events or at the end of --for, 1 or 2 when the listen failed or
        was malformed, 3 when the project cannot be reached or the server ends the socket or the
        channel (said on standard error: it never stops silently), 130/143 on SIGINT/SIGTERM.
        """,
      firstArgument: [], takesScripts: false),
    CommandDescription(
      command: .realtime,
      usages: [
        Usage(
          synopsis: "snm realtime check TABLE",
          summary: "why a table's changes would not reach you")
      ],
      synopsis: "check TABLE [--dir DIR] [OPTIONS]",
      details: """
        Checks, for the signed-in user (signed out: anon), what stops a table's changes from
        arriving: the supabase_realtime publication, the replica identity (old_record, filters on
        DELETE), row level security (the rows this user's role and claims can read) and a
        Realtime join of the table. The database is read only for a local project named with
        --local or --dir DIR; otherwise the join alone is tried, and the report says what it
        could not check. One line per finding: ok, note, problem, not
        checked. In the shell and in scripts the same check is the statement
        'realtime check TABLE', and 'realtime check channel TOPIC private' tries a private
        channel's read and write policies (see 'help realtime' in the shell).
        """,
      takesShellOptions: true,
      footer: """
        Exit code: 0 no problem found, 1 a problem found, 2 usage, 3 the project or its Realtime
        could not be reached.
        """,
      firstArgument: [("check", "why a table's changes would not reach you")],
      takesScripts: false),
    CommandDescription(
      command: .gen,
      usages: [
        Usage(
          synopsis: "snm gen swift [--out FILE [--check]]",
          summary: "Swift types for the project's schemas")
      ],
      synopsis: "swift [--schema S,...] [--access public|internal] [--out FILE [--check]]",
      details: """
        Writes Swift types for the schemas' tables, views, enums, composite types and functions:
        per table Select, Insert and Update structs (Codable, Hashable, Sendable), Columns and
        tableName, with the support types that decode what PostgREST sends. From the local
        project (--local, --dir DIR, or, outside CI, nothing naming a project) it reads the catalog;
        from another project (--url, --profile, SUPABASE_URL) the OpenAPI document PostgREST
        serves, with the service key when there is one (the anon key's lists less, and no
        composite types, defaults or function results).
        """,
      takesShellOptions: false,
      footer: """
        Exit code: 0 written (or --check: up to date), 1 --check found FILE differs, 2 usage,
        3 the project could not be reached or refused its document.
        """,
      firstArgument: [("swift", "Swift types")], takesScripts: false),
    CommandDescription(
      command: .completion,
      usages: [
        Usage(synopsis: "snm completion bash|zsh", summary: "print a shell completion script")
      ],
      synopsis: "bash|zsh",
      details: """
        Prints a script that teaches the shell snm's commands and options:
          source <(snm completion bash)
          snm completion zsh > "${fpath[1]}/_snm"
        """,
      takesShellOptions: false, footer: nil,
      firstArgument: [("bash", "bash"), ("zsh", "zsh")], takesScripts: false),
  ]
}
