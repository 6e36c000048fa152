/// The text of `help` and `help <topic>` at the prompt.
///
/// ```swift
/// LanguageHelp.text(for: nil)       // the overview
/// LanguageHelp.text(for: "where")   // filters
/// ```
enum LanguageHelp {
  /// The topics, in the order the overview lists them, with the words that reach each.
  static let topics: [(names: [String], text: String)] = [
    (["from", "select", "query", "queries"], queries),
    (["where", "filter", "filters", "operators"], filters),
    (["insert", "upsert", "update", "put", "delete", "write", "writes"], writes),
    (["rpc", "function"], rpc),
    (["storage", "bucket", "buckets", "upload", "download", "files"], storage),
    (
      ["realtime", "listen", "unlisten", "broadcast", "track", "untrack", "event", "events"],
      realtime
    ),
    (["functions", "invoke", "request", "edge", "http"], functions),
    (["login", "signup", "session", "logout"], session),
    (["auth", "user", "mfa", "admin", "inbox", "service", "otp", "password"], auth),
    (["let", "expect", "echo", "run", "script", "scripts", "variables"], scripts),
    (["set", "format", "tables", "describe", "explain", "shell", "keys", "snmrc"], shell),
    (["psql", "\\", "\\?", "backslash"], backslashCommands),
  ]

  /// `from, where, insert, rpc, login, let, set`.
  static var topicList: String { topics.map { $0.names[0] }.joined(separator: ", ") }

  /// The help for `topic` (the overview for nil); nil for an unknown topic.
  static func text(for topic: String?) -> String? {
    guard let topic, !topic.isEmpty else { return overview }
    let word = topic.lowercased()
    return topics.first { $0.names.contains(word) }?.text
  }

  static let overview = """
    snm statements (one per line, or separated by ';'):
      from user_info select id, name where age >= 3 order by name limit 10
      from user_info insert {"name": "Kim"} returning id
      rpc nearby_dogs {"lat": 37.5, "lng": 127.0}
      login | login email 'kim@example.com' | session show | logout
      tables | describe user_info | explain from user_info select *
      set format table|expanded|json|ndjson|csv | set timing on | exit
    Tab completes names, Ctrl-R searches the history, Ctrl-C cancels, Ctrl-D leaves.
    More: help from, help where, help insert, help rpc, help storage, help functions,
          help login, help auth, help realtime, help let, help set; \\? lists the psql-style commands
    """

  static let functions = """
    invoke hello {"name": "Bori"}            POST /functions/v1/hello as you (JSON body)
    invoke hello get | put | patch | delete | head | options
    invoke reports/daily put file 'r.csv'    a sub-path; a file's bytes as the body
    invoke 'hello?day=3' 'some text'         a query (quoted); a string goes as text/plain
    invoke hello header x-region 'eu-west-1' any header, repeated
    request get '/rest/v1/dog_profile?select=id'   any path under the project's URL
    request post '/storage/v1/bucket' body {"name": "avatars"} [header k 'v']
    invoke reports/pdf get > 'report.pdf'    the answer's body into a file, byte for byte
    JSON answers print as rows, text as text, bytes as their size and type; $last.body holds the
    answer (let r = invoke ... binds it). A non-2xx answer fails with its status and body (exit 1),
    no answer at all with exit 3, the relay's error (x-relay-error) with exit 4. request never
    leaves the project's host: paths start with '/'. explain [json|curl] invoke ... shows the
    request and the supabase-swift functions.invoke call.
    """

  static let auth = """
    accounts, codes by mail, MFA (docs/auth.md has each request):
      user show | user update {"nick": "kim"} | user update email 'new@example.com'
      user update password $env.NEW [nonce '...'] | user reauthenticate
      password reset 'kim@example.com' | session refresh | logout local|others|global
      login otp email 'kim@example.com' | login magic link 'kim@example.com'
      verify otp email 'kim@example.com' token '123456' [type signup|magiclink|recovery|...]
      resend signup 'kim@example.com'
      login otp phone '+15555550100' | verify otp phone '+15555550100' token '123456'
      resend sms '+15555550100'   (texts: snm local start --phone-signup; inbox '+1...')
      mfa factors | mfa enroll totp [name 'phone'] | mfa unenroll $id
      mfa verify [factor $id] code '123456'   (or: secret $f.secret, the code made from it)
    with the service key (--service-key, $SUPABASE_SERVICE_ROLE_KEY, $SUPABASE_SECRET_KEY):
      admin users [where email ilike 'ci-%'] [limit N] [page N] | admin user $id
      admin create user email '...' [password '...'] [confirmed] [data {...}] [app {...}]
      admin update user $id {...} | admin delete user $id [soft]
      admin link magiclink|recovery|invite|signup email '...' | admin invite '...'
      as service from dog_profile delete where owner eq $id   (no session, RLS bypassed)
      let mail = inbox 'kim@example.com'   ($mail.otp, $mail.link; the local project's mail)
    """

  static let backslashCommands = """
    psql-style commands (each is also a statement: help set lists them):
      \\?                  this list
      \\h [TOPIC]          help [TOPIC]
      \\q                  exit (also Ctrl-D)
      \\d [TABLE]          tables, or describe TABLE
      \\d+ TABLE           describe TABLE, with more detail
      \\dt                 tables
      \\conninfo           the project, the key's kind and role, who is signed in
      \\x                  switch between table and expanded output
      \\timing [on|off]    set timing
      \\pset null TEXT     set null 'TEXT': how tables show NULL
      \\pset format F      set format F;  \\pset pager on|off: set pager
      \\o FILE             results go to FILE (emptied first);  \\o: back to the screen
      \\e                  edit the last statement in $VISUAL or $EDITOR, then run it
      \\watch [S] [count=N]   run the last statement every S seconds (2) until Ctrl-C
      \\i FILE             run FILE
    Startup file: settings only, from $XDG_CONFIG_HOME/snm/snmrc (~/.config/snm/snmrc);
    snm -X skips it. help set lists the settings.
    """

  static let realtime = """
    listen todos [insert|update|delete|*] [where owner eq $me and ...]   postgres_changes on a table
    listen channel room1 [private]           broadcast and presence on a topic
    broadcast room1 cursor {"x": 1}          send (acknowledged by the server)
    track room1 {"status": "online"} | untrack room1      this client's presence
    expect event [todos] [insert] [where id eq 3] [within 5s]    the next matching event: $event
    expect no event todos within 2s          no matching event arrives in that time
    unlisten todos | unlisten all
    realtime check todos | realtime check channel room1 [private]   why events would not arrive
                                             for the signed-in user; a problem fails it (exit 1)
    listen returns once the server says the subscription is live; events queue per subscription
    from then on and 'expect event' takes them in order (at the prompt they also print as they
    come). Filters take eq neq lt lte gt gte in like ilike is match imatch isdistinct, joined by
    'and'. 'explain listen todos' shows the join message and the supabase-swift calls.
    A subscription keeps 10,000 unread events (64 MiB for all together); past that,
    'expect no event' fails (cannot tell).
    When the socket ends, 'expect event' fails at once with exit 3. From a terminal or CI:
      snm listen todos insert --json [--count N] [--for 30s]   one line per event on stdout
      snm realtime check todos   the same check as the statement, for a table
    """

  static let storage = """
    storage buckets                          the buckets you may see
    storage create bucket avatars [public] [limit 5MB] [types 'image/*'] | drop bucket | empty bucket
    storage ls avatars/dogs/ [limit 50] [offset 0] [search 'bo'] [order by name desc]
    storage upload 'bori.jpg' to avatars/dogs/bori.jpg [type 'image/jpeg'] [upsert] [cache 3600]
    storage download avatars/dogs/bori.jpg [to 'out.jpg'] [public]
    storage mv|cp avatars/a.jpg to avatars/b.jpg    storage rm avatars/a.jpg, avatars/b.jpg
    storage info|exists avatars/a.jpg    storage sign avatars/a.jpg expires 60 [download]
    storage url dog-photos/a.jpg         the public URL (sends nothing)
    Paths are bucket/path; quote them for other characters or variables: "avatars/${me}/a.png"
    """

  static let queries = """
    from <table> select <columns> [where ...] [order by ...] [limit N] [offset N] [all]
      select *                       every column
      select id, nick:name, age::text   aliases and casts
      select name, owner:user_info(id, name)   embedded rows through a foreign key
      select name, user_info!inner(name)       only rows that have a match
      order by name desc nulls last, id
      count exact|planned|estimated  the total, in the footer
      single | maybe single          one object instead of an array
      all                            every row, a page at a time past the server's 1,000-row cap
    """

  static let filters = """
    where <column> <operator> <value> [and|or ...]
      eq =  neq != <>  gt >  gte >=  lt <  lte <=  like  ilike  match ~  imatch ~*
      in (1, 2)  is null  is not null  isdistinct  cs contains  cd containedby  ov overlaps
      sl sr nxl nxr adj (ranges)  fts plfts phfts wfts [(config)] (text search)
      name like any ['%a%', '%b%']   not eq / not in / not (...)   data->>blood eq 'A'
      embed.column filters embedded rows; 'eq null' is an error: write 'is null'
    """

  static let writes = """
    from <table> insert {"name": "Kim"} | [{...}, {...}]   [returning <columns>]
    from <table> upsert {...} [on conflict id] [ignore duplicates]
    from <table> update {"name": "Lee"} where id eq 1      ('where all' to update every row)
    from <table> delete where id eq 3 [returning *]         ('where all' to delete every row)
    from <table> put {"id": 1, ...} where id eq 1         one whole row by its key (PUT)
    """

  static let rpc = """
    rpc <function> {"arg": value}          POST, arguments as the JSON body
    rpc get <function> {"arg": value}      GET (STABLE functions), arguments in the URL
    rpc ... where/order by/limit/single    on functions that return rows
    """

  static let session = """
    login                          a new anonymous user
    login email 'a@b.c'            asks for the password without echo
    signup email 'a@b.c'           a new user with a password
    session check                  refresh when close to expiry; who, role, time left
    session show                   user id, role, expiry (never the tokens)
    session refresh                a new access token now, whatever time is left
    session token                  the access token alone on a line, for curl
    logout
    """

  static let scripts = """
    let dog = from dog_profile insert {"name": "Bori"} returning id single
    echo 'made $dog.id'            $name, $name.field, $name[0].field, ${name}, $env.HOME
    expect rows 1 | expect status 201 | expect $dog.name == 'Bori' | expect error 23505
    run other.snm                  (also \\i other.snm)
    defer <statement>              runs when the file ends, whatever happens (last first)
    expect ... within 10s every 500ms   send the statement before again until it holds
    expect count 12 | expect header Content-Range == '0-9/42' | expect time < 300ms
    expect $dog.walks count 3 | expect $dog.photo exists | expect $dog.age is number
    $last.status, $last.count, $last.headers.content-range   the last answer
    ... count exact head           the count, no rows (HEAD)
    ... max affected 1 | ... rollback   guarded and rolled-back writes
    ... plan [analyze] [verbose] [settings] [buffers] [wal]   the server's execution plan
    insert file 'dogs.json' | insert csv 'dogs.csv' | select ... > 'out.csv' | set output 'f'
    ${uuid} ${now} ${now + 1h} ${random 8}   new values in strings and bodies
    snm FILE.snm, snm -c '...; ...', snm test DIR, --var NAME=VALUE
    """

  static let shell = """
    tables                         tables and views the project exposes (\\dt)
    describe <table>               columns, types, keys (\\d <table>); describe+ adds comments
    explain [json|curl] <statement>   the request, not sent
    set format table|expanded|json|ndjson|csv
    set expanded on|off|auto       records always, never, or when a table is too wide (auto;
                                   \\x turns records on or off)
    set timing on|off              network and rendering time (\\timing)
    set on_error stop|continue     what a failed statement does to a script
    set pager on|off               long results at the prompt through $SNM_PAGER, else $PAGER, else
                                   less -SRXF (SNM_PAGER empty or off: no pager)
    set null 'TEXT'                how tables show NULL (NULL; \\pset null TEXT)
    set output 'FILE' | off        results to a file (\\o FILE), and back
    set timezone 'ZONE' | off      Prefer: timezone=ZONE with every query and rpc
    exit | quit | \\q | Ctrl-D
    Startup file: $XDG_CONFIG_HOME/snm/snmrc (~/.config/snm/snmrc), settings only (set ...,
    \\x, \\timing, \\pset), applied before the first prompt; snm -X skips it
    Keys: Tab completes, Up/Down walk the history, Ctrl-R searches it, Ctrl-C abandons the line
    or cancels the request in flight.
    """
}
