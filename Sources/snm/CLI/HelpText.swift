/// What `--help` prints, made from ``CommandLineTable`` and ``CommandDescription``: the command
/// line's source of truth.
enum HelpText {
  /// `snm --help`, or `snm <command> --help`.
  static func text(for command: Command) -> String {
    command == .shell ? shell : subcommand(command)
  }

  /// What `snm --help` prints.
  static var shell: String {
    var text = "snm: a shell for Supabase projects\n\nUSAGE\n"
    let usages =
      CommandDescription.all.flatMap(\.usages) + [
        .init(synopsis: "snm --help | --version", summary: "")
      ]
    for usage in usages {
      text += column(usage.synopsis, usage.summary, width: 39)
    }
    text += "\nOPTIONS\n"
    text += optionLines(for: .shell)
    return text + "\n" + shellProse
  }

  /// `snm test --help` and the others: the usage line, what it does, its options.
  static func subcommand(_ command: Command) -> String {
    let description = CommandDescription.of(command)
    var text = description.usageLine + "\n"
    if !description.details.isEmpty { text += "\n" + description.details + "\n" }
    if !description.firstArgument.isEmpty && command == .local {
      text += "\n"
      for (word, summary) in description.firstArgument {
        text += column(word, summary, width: 10)
      }
    }
    let options = optionLines(for: command, shared: description.takesShellOptions)
    if !options.isEmpty || description.takesShellOptions { text += "\n" + options }
    if description.takesShellOptions {
      text +=
        "  and the OPTIONS of 'snm --help' (--url, --key, --profile, --local, --var NAME=VALUE, "
        + "...)\n"
    }
    if let footer = description.footer { text += "\n" + footer + "\n" }
    return text + "\n"
  }

  /// One line per listed option of `command` (without the shell's, when `shared`).
  static func optionLines(for command: Command, shared: Bool = false) -> String {
    CommandLineTable.options(for: command).filter { option in
      option.isListed(in: command) && !(shared && option.commands.contains(.shell))
    }.map { column($0.synopsis, $0.help, width: 23) }.joined()
  }

  /// `  left` padded to `width` (at least two spaces), then `right`, whose further lines are
  /// indented to the same column.

  static func column(_ left: String, _ right: String, width: Int) -> String {
    guard !right.isEmpty else { return "  \(left)\n" }
    let indent = "\n" + String(repeating: " ", count: width + 2)
    let lines = right.split(separator: "\n", omittingEmptySubsequences: false).joined(
      separator: indent)
    return "  " + left + String(repeating: " ", count: max(2, width - left.count)) + lines + "\n"
  }

  static let shellProse = """
    PROJECT
      A flag beats the environment: --url/--key, --profile NAME or --local (the local
      project, started on first use at http://127.0.0.1:54321), else SUPABASE_URL and a key
      variable. With none, snm test and runs under CI=true stop (exit 2); the shell and
      other runs use the local project and say so. snm test and script files print the
      project first (URL, kind of key, what named it).

    AT THE PROMPT
      from user_info select * where age >= 3 order by name limit 10
      help, tables, describe TABLE, explain STATEMENT, set format json, set timing on, exit
      Tab completes, Ctrl-R searches the history, Ctrl-C cancels, Ctrl-D leaves.

    SCRIPTS
      let dog = from dog_profile select id, name where name eq 'Bori' single
      expect rows 1          expect status 201          expect $dog.name == 'Bori'
      expect error 23505     (the statement before must fail, with that code)
      echo 'made ${dog.id}'  run setup.snm      set on_error continue

    EXIT CODES
      0 success, 1 a statement or expectation failed or standard output could not be
      written, 2 usage or parse error or standard input could not be read, 3 could not
      reach the project or authenticate, 4 the project's relay could not reach the edge
      function invoked, 130 interrupted (SIGINT), 131 quit (Ctrl-\\, SIGQUIT), 143
      terminated (SIGTERM); a script stopped by a signal names the statement

    """
}
