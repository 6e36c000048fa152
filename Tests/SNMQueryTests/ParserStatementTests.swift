import Testing

@testable import SNMQuery

/// Spec §3 (session), §4 (scripts) and §5 (shell): every form parses to its node.
@Suite struct ParserStatementTests {
  static let sessionForms: [CanonicalCase] = [
    CanonicalCase("login", "login"),
    CanonicalCase("LOGIN", "login"),
    CanonicalCase("login email 'a@b.c'", #"login email "a@b.c""#),
    CanonicalCase(
      "login email 'a@b.c' password 'secret'", #"login email "a@b.c" password "secret""#),
    CanonicalCase(
      "login email 'a@b.c' password $env.SNM_PASSWORD",
      #"login email "a@b.c" password $env.SNM_PASSWORD"#),
    CanonicalCase(
      "login email $env.EMAIL password $env.PW", "login email $env.EMAIL password $env.PW"),
    CanonicalCase("login email 'a@b.c' $env.PW", #"login email "a@b.c" password $env.PW"#),
    // An address needs no quotes.
    CanonicalCase("login email alice@example.com", #"login email "alice@example.com""#),
    CanonicalCase(
      "login email kim.lee@mail.example.co.kr password 'pw'",
      #"login email "kim.lee@mail.example.co.kr" password "pw""#),
    CanonicalCase("signup email new-user@b.c", #"signup email "new-user@b.c""#),
    CanonicalCase("signup email 'new@b.c'", #"signup email "new@b.c""#),
    CanonicalCase(
      "signup email 'new@b.c' password 'pw12345'", #"signup email "new@b.c" password "pw12345""#),
    CanonicalCase("session check", "session check"),
    CanonicalCase("Session Show", "session show"),
    CanonicalCase("logout", "logout"),
  ]

  static let scriptForms: [CanonicalCase] = [
    CanonicalCase(
      #"let dog = from dog_profile insert {"name": "Bori"} returning id single"#,
      #"let dog = from dog_profile insert {"name": "Bori"} single returning id"#),
    CanonicalCase("let n = 3", "let n = 3"),
    CanonicalCase("let me = $session.user_id", "let me = $session.user_id"),
    CanonicalCase(#"let body = {"a": [1, 2]}"#, #"let body = {"a": [1, 2]}"#),
    CanonicalCase(
      "let r = rpc get sum {\"numbers\": [1]}", #"let r = rpc get sum {"numbers": [1]}"#),
    CanonicalCase("expect rows 1", "expect rows == 1"),
    CanonicalCase("expect rows >= 1", "expect rows >= 1"),
    CanonicalCase("expect rows != 0", "expect rows != 0"),
    CanonicalCase("expect status 201", "expect status == 201"),
    CanonicalCase("expect status < 300", "expect status < 300"),
    CanonicalCase(
      "let dog = 1\nexpect $dog.name == 'Bori'", "let dog = 1\nexpect $dog.name == \"Bori\""),
    CanonicalCase("expect $x != 2", "expect $x != 2"),
    CanonicalCase("expect $x contains 'a'", #"expect $x contains "a""#),
    CanonicalCase("expect $x matches '^B'", #"expect $x matches "^B""#),
    CanonicalCase("expect $x <= 3", "expect $x <= 3"),
    CanonicalCase("expect error 23505", "expect error 23505"),
    CanonicalCase("expect error PGRST116", "expect error PGRST116"),
    CanonicalCase("expect error 22P02", "expect error 22P02"),
    CanonicalCase("expect error", "expect error"),
    CanonicalCase("echo 'made $dog.id'", #"echo "made ${dog.id}""#),
    CanonicalCase("echo 'cost: $5 and ${x}'", #"echo "cost: \$5 and ${x}""#),
    CanonicalCase("echo $dog", "echo $dog"),
    CanonicalCase("echo", #"echo """#),
    CanonicalCase("run other.snm", #"run "other.snm""#),
    CanonicalCase("run ../setup/seed data.snm", #"run "../setup/seed data.snm""#),
    CanonicalCase("run 'my file.snm'", #"run "my file.snm""#),
  ]

  static let shellForms: [CanonicalCase] = [
    CanonicalCase("help", "help"),
    CanonicalCase("help from", "help from"),
    CanonicalCase("help where operators", "help where operators"),
    CanonicalCase("tables", "tables"),
    CanonicalCase("describe user_info", "describe user_info"),
    CanonicalCase("describe auth.users", "describe auth.users"),
    CanonicalCase("explain from user_info select *", "explain from user_info select *"),
    CanonicalCase(
      "explain json rpc get sum {\"numbers\": [1]}", #"explain json rpc get sum {"numbers": [1]}"#),
    CanonicalCase(
      "explain curl from t delete where id eq 1", "explain curl from t delete where id eq 1"),
    CanonicalCase("set format table", "set format table"),
    CanonicalCase("set format EXPANDED", "set format expanded"),
    CanonicalCase("set format json", "set format json"),
    CanonicalCase("set format ndjson", "set format ndjson"),
    CanonicalCase("set format csv", "set format csv"),
    CanonicalCase("set timing on", "set timing on"),
    CanonicalCase("set timing off", "set timing off"),
    CanonicalCase("set on_error continue", "set on_error continue"),
    CanonicalCase("set on_error stop", "set on_error stop"),
    CanonicalCase("exit", "exit"),
    CanonicalCase("quit", "exit"),
    CanonicalCase("\\q", "exit"),
    CanonicalCase("\\d", "tables"),
    CanonicalCase("\\d user_info", "describe user_info"),
    CanonicalCase("\\dt", "tables"),
    CanonicalCase("\\i setup.snm", #"run "setup.snm""#),
    CanonicalCase("\\x", "\\x"),
    CanonicalCase("\\timing", "\\timing"),
    CanonicalCase("\\timing off", "set timing off"),
    // psql habits: each spelling is a statement of its own or the same node as its snm form.
    CanonicalCase("\\h", "help"),
    CanonicalCase("\\?", "\\?"),
    CanonicalCase("\\d+", "tables"),
    CanonicalCase("\\dt+", "tables"),
    CanonicalCase("\\d+ user_info", "describe+ user_info"),
    CanonicalCase("describe+ user_info", "describe+ user_info"),
    CanonicalCase("\\x auto", "set expanded auto"),
    CanonicalCase("set expanded off", "set expanded off"),
    CanonicalCase("\\h where", "help where"),
    CanonicalCase("\\conninfo", "\\conninfo"),
    CanonicalCase("\\o", "\\o"),
    CanonicalCase("\\o out.txt", #"\o "out.txt""#),
    CanonicalCase("\\o 'my results.txt'", #"\o "my results.txt""#),
    CanonicalCase("\\o 'out-${n}.txt'", #"\o "out-${n}.txt""#),
    CanonicalCase("\\o out-${n}.txt", #"\o "out-\${n}.txt""#),
    CanonicalCase("\\e", "\\e"),
    CanonicalCase("\\watch", "\\watch 2"),
    CanonicalCase("\\watch 5", "\\watch 5"),
    CanonicalCase("\\watch 0.5 count=3", "\\watch 0.5 count=3"),
    CanonicalCase("\\watch i=10 c=2", "\\watch 10 count=2"),
    CanonicalCase("\\pset null '(null)'", #"set null "(null)""#),
    CanonicalCase("\\pset null (null)", #"set null "(null)""#),
    CanonicalCase("\\pset format csv", "set format csv"),
    CanonicalCase("\\pset pager off", "set pager off"),
    CanonicalCase("set null '¤'", #"set null "¤""#),
    CanonicalCase("set null ''", #"set null """#),
  ]

  @Test(arguments: sessionForms + scriptForms + shellForms)
  func statementForm(_ testCase: CanonicalCase) {
    #expect(canonical(testCase.input) == testCase.canonical)
  }

  @Test func letBindsAQueryStatement() throws {
    let parsed = try #require(
      statement("let dog = from dog_profile insert {\"name\": \"Bori\"} returning id single"))
    guard case .let(let binding) = parsed.kind, case .statement(let inner) = binding.value,
      case .query(let query) = inner.kind
    else {
      Issue.record("expected let with a query, got \(parsed)")
      return
    }
    #expect(binding.name.text == "dog")
    #expect(query.modifiers.single == .single)
    #expect(query.modifiers.rare?.returning?.count == 1)
  }

  @Test func loginWithoutPasswordLeavesItToThePrompt() throws {
    let parsed = try #require(statement("login email 'a@b.c'"))
    guard case .session(.login(let email, let password)) = parsed.kind else {
      Issue.record("expected login")
      return
    }
    #expect(email.value == .string(StringLiteral("a@b.c")))
    #expect(password == nil)
  }

  @Test func statementsSeparatedByNewlinesSemicolonsAndComments() {
    let text = """
      # a script
      login; session show   -- two on one line
      from user_info select * # trailing comment

      let n = 3;
      expect rows >= $n
      """
    let result = parseAndCheck(text)
    #expect(result.errors == [])
    #expect(
      result.statements == [
        "login", "session show", "from user_info select *", "let n = 3", "expect rows >= $n",
      ])
  }

  @Test func rangesCoverEachStatement() {
    let script = Parser.parse("login\n  from t select *  ;logout")
    #expect(
      script.statements.map { script.source.text(of: $0.range) } == [
        "login", "from t select *", "logout",
      ])
  }
}
