import Foundation
import Testing

@testable import SNMGateway
@testable import SNMLocal
@testable import SNMLocalAuth
@testable import SNMLocalStorage

/// One real cluster for the libpq wrapper, pool, transactions, bootstrap and demo migrations;
/// created in a temporary folder, destroyed at the end.
@Test func libpqWrapperPoolAndMigrationsOnARealCluster() throws {
  let directory = FileManager.default.temporaryDirectory.path + "/snm-pgtest-" + UUID().uuidString
  let cluster = Cluster(layout: ClusterLayout.choose(projectDir: directory))
  defer {
    try? cluster.destroy()
    try? FileManager.default.removeItem(atPath: directory)
  }
  try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
  try cluster.initializeIfNeeded()
  try cluster.start()
  try cluster.start()  // idempotent
  #expect(cluster.isRunning)

  let admin = try PGConnection(conninfo: cluster.layout.conninfo(user: "postgres"))
  let applied = try Migrator(migrationsDir: nil).apply(on: admin)
  #expect(
    Array(applied.prefix(BootstrapSQL.steps.count + 9))
      == BootstrapSQL.steps.map(\.version) + [
        StorageSchemaSQL.version, AuthSchemaSQL.version, AuthSchemaSQL.phoneVersion,
        AuthSchemaSQL.guessesVersion, AuthSchemaSQL.flowStateVersion,
        AuthSchemaSQL.identitiesVersion, AuthSchemaSQL.flowReferrerVersion,
        AuthSchemaSQL.spentTokensVersion, OAuthSchemaSQL.version,
      ])
  #expect(applied.count == BootstrapSQL.steps.count + 9 + DemoSchemaSQL.migrations.count)
  #expect(try Migrator(migrationsDir: nil).apply(on: admin).isEmpty, "each migration runs once")

  // Parameters, NULLs, text results.
  let echo = try admin.execute(
    "select $1::int + 1 as n, $2::text as t, $3::text as z", ["41", "é🐶", nil])
  #expect(echo.columns == ["n", "t", "z"])
  #expect(echo.rows == [["42", "é🐶", nil]])
  #expect(echo.columnTypes == [23, 25, 25])

  // Server errors carry SQLSTATE, message, detail.
  do {
    _ = try admin.execute(
      "insert into auth.users (id, email) values ($1::uuid, 'x@y.z')", [DemoSeedSQL.alice])
    Issue.record("a duplicate key must fail")
  } catch {
    #expect(error.kind == .server)
    #expect(error.sqlState == "23505")
    #expect(error.message.contains("duplicate key"))
    #expect(error.detail?.contains(DemoSeedSQL.alice) == true)
  }
  #expect(throws: PGError.self) { try admin.execute("select 1; select 2") }
  do {
    _ = try admin.execute("select $1::text", ["a\u{0}b"])
  } catch {
    #expect(error.sqlState == "22021")
  }

  // Pipeline: results in order; the first error stops the rest.
  let results = try admin.pipeline([PGStatement("select 1"), PGStatement("select $1::text", ["x"])])
  #expect(results.map(\.scalar) == ["1", "x"])
  #expect(throws: PGError.self) {
    try admin.pipeline([PGStatement("select 1/0"), PGStatement("select 2")])
  }
  #expect(
    try admin.execute("select 3").scalar == "3", "the connection is usable after a failed pipeline")

  // Transactions as authenticator: role switch, claims, RLS, rollback on error.
  let pool = PGPool(conninfo: cluster.layout.conninfo(user: "authenticator"), size: 2)
  let alice = RequestAuth(
    role: "authenticated",
    claims: .object([
      .init("sub", .string(DemoSeedSQL.alice)), .init("role", .string("authenticated")),
    ]),
    isAnonymous: false)
  let seen = try pool.transaction(as: alice.requestRole) { tx in
    try tx.execute("select current_user, auth.uid()::text, count(*)::text from public.walk_request")
      .rows[0]
  }
  #expect(seen == ["authenticated", DemoSeedSQL.alice, "2"])
  let anonymousDogs = try pool.transaction(as: RequestAuth.anonymous.requestRole) { tx in
    try tx.executeAndCommit(
      PGStatement("select string_agg(id::text, ',' order by id) from dog_profile")
    ).scalar
  }
  #expect(anonymousDogs == "1,4")
  #expect(throws: PGError.self) {
    try pool.transaction(as: alice.requestRole) { tx in
      _ = try tx.execute(
        "update public.user_info set age = 99 where id = $1::uuid", [DemoSeedSQL.alice])
      _ = try tx.execute("select 1/0")
    }
  }
  let age = try admin.execute(
    "select age from public.user_info where id = $1::uuid", [DemoSeedSQL.alice])
  #expect(age.scalar == "31", "a failed transaction rolls back")
  do {
    _ = try pool.transaction(as: RequestAuth.anonymous.requestRole) { tx in
      try tx.execute(
        "insert into public.dog_profile (owner, name) values ($1::uuid, 'x')", [DemoSeedSQL.alice])
    }
    Issue.record("anon may not insert")
  } catch let error as PGError {
    #expect(error.sqlState == "42501")
  }
  let plain = try pool.withConnection { try $0.execute("select current_user").scalar }
  #expect(plain == "authenticator", "no role leaks to the next user of a pooled connection")

  // The API roles' statement timeouts (Supabase's), set by the bootstrap.
  let timeouts = try admin.execute(
    "select rolname, array_to_string(rolconfig, ',') from pg_roles "
      + "where rolname in ('anon', 'authenticated', 'authenticator') order by 1")
  #expect(
    timeouts.rows == [
      ["anon", "statement_timeout=3s"], ["authenticated", "statement_timeout=8s"],
      ["authenticator", "statement_timeout=8s"],
    ])

  // Interrupts: a deadline, or the watched socket's peer hanging up, cancels the statement in
  // the server; the connection is usable afterwards.
  let sleeper = try PGConnection(conninfo: cluster.layout.conninfo(user: "postgres"))
  let start = monotonicSeconds()
  do {
    _ = try sleeper.pipeline(
      [PGStatement("select pg_sleep(30)")], interrupt: PGInterrupt(deadline: start + 0.3))
    Issue.record("the deadline must cancel the sleep")
  } catch {
    #expect(error.kind == .interrupted(.deadline))
    #expect(error.sqlState == "57014")
  }
  #expect(monotonicSeconds() - start < 10)
  #expect(try sleeper.execute("select 1").scalar == "1" && sleeper.isReusable)
  var pair: [Int32] = [0, 0]
  #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0)
  defer { close(pair[0]) }
  let peer = pair[1]
  DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) { close(peer) }
  do {
    _ = try sleeper.pipeline(
      [PGStatement("select pg_sleep(30)")], interrupt: PGInterrupt(watchedSocket: pair[0]))
    Issue.record("the hang-up must cancel the sleep")
  } catch {
    #expect(error.kind == .interrupted(.peerGone))
  }
  let running = try admin.execute(
    "select count(*) from pg_stat_activity where query = 'select pg_sleep(30)' and state = 'active'"
  )
  #expect(running.scalar == "0", "the server stopped the statement, not only the client")
  #expect(
    try sleeper.pipeline([PGStatement("select 2")], interrupt: PGInterrupt()).first?.scalar == "2")
  // A statement that ends within the grace after a hang-up is not cancelled (a cancel costs the
  // server a process): its result comes back.
  var gone: [Int32] = [0, 0]
  #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &gone) == 0)
  close(gone[1])
  defer { close(gone[0]) }
  let spared = try sleeper.pipeline(
    [PGStatement("select 3 from pg_sleep(0.01)")], interrupt: PGInterrupt(watchedSocket: gone[0]))
  #expect(spared.first?.scalar == "3")
  sleeper.close()

  // A backend past the pool's limit is closed when it comes back.
  let small = PGPool(conninfo: cluster.layout.conninfo(user: "postgres"), size: 1, recycleAbove: 1)
  let first = try small.checkOut()
  _ = try first.pipeline([PGStatement("select 1", prepared: true)])  // a new plan: measured
  #expect((first.backendMemory ?? 0) > 1)
  small.checkIn(first)
  let second = try small.checkOut()
  #expect(second !== first, "the grown backend was not reused")
  small.checkIn(second)

  // A project whose owner dropped the demo tables, upgraded to an snm with a new demo migration:
  // the migration is skipped (and recorded so), not failed with "relation does not exist".
  _ = try admin.execute(
    "drop table public.walk_request, public.mate, public.dog_profile, public.user_info cascade")
  _ = try admin.execute(
    "delete from supabase_migrations.schema_migrations where version = '00000000000005_demo_policies'"
  )
  #expect(try Migrator(migrationsDir: nil).apply(on: admin).isEmpty, "skipped, not applied")
  let skipped = try admin.execute(
    "select name from supabase_migrations.schema_migrations "
      + "where version = '00000000000005_demo_policies'")
  #expect(
    skipped.scalar
      == "demo schema 00000000000005_demo_policies (skipped: public.user_info, "
      + "public.dog_profile, public.mate, public.walk_request dropped)")
  #expect(try Migrator(migrationsDir: nil).apply(on: admin).isEmpty, "and not tried again")

  try cluster.stop()
  #expect(!cluster.isRunning)
  #expect(throws: PGError.self) { try admin.execute("select 1") }
}
