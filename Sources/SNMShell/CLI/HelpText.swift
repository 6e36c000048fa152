/// The text of `snm --help`: the command line's source of truth.
public enum HelpText {
  /// What `snm --help` prints.
  public static let usage = """
    snm: a shell for Supabase projects

    USAGE
      snm [OPTIONS]                          the shell (reads statements from a pipe too)
      snm [OPTIONS] FILE.snm [FILE.snm ...]  run scripts in order
      snm [OPTIONS] -c 'STATEMENTS'          run statements (separate them with ';')
      snm explain [--json|--curl] 'STATEMENT'  print the request, send nothing
      snm test [OPTIONS] PATH...             run .snm files as tests (--jobs N,
                                             --report junit|tap|json=PATH; see snm test --help)
      snm check PATH...                      parse and check, offline
      snm local start|stop|status|reset|serve  the local project
      snm completion bash|zsh                print a shell completion script
      snm --help | --version

    OPTIONS
      --url URL              the project URL (else $SUPABASE_URL)
      --key KEY              the project API key, sb_publishable_/sb_secret_ or a legacy
                             JWT (else $SUPABASE_PUBLISHABLE_KEY, $SUPABASE_ANON_KEY,
                             $SUPABASE_SECRET_KEY, $SUPABASE_SERVICE_ROLE_KEY)
      --profile NAME         a project from $XDG_CONFIG_HOME/snm/config.json
      --format FORMAT        table, expanded, json, ndjson or csv
      --var NAME=VALUE       set $NAME for the statements
      --echo                 print each statement before its result
      --quiet                print only failures
      --continue-on-error    keep going after a failed statement
      --timeout SECONDS      give up on a request after this long (the whole request)
      --cacert FILE          trust these CA certificates (PEM) for https (else $SSL_CERT_FILE)
      --no-color             never colour the output (also: NO_COLOR=1)
      -c STATEMENTS          run STATEMENTS and exit

    PROJECT
      --url/--key, else SUPABASE_URL and a key variable, else --profile, else the local
      project (started on first use at http://127.0.0.1:54321).

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
      0 success, 1 a statement or expectation failed, 2 usage or parse error,
      3 could not reach the project or authenticate, 130 interrupted (SIGINT),
      143 terminated (SIGTERM); a script stopped by a signal names the statement

    """
}
