import Foundation
import SNMGateway
import SNMLocal
import SNMShell
import SNMWire

/// `snm realtime check TABLE [--dir DIR]`: ``RealtimeCheck`` against the chosen project. The
/// database is asked (as its superuser, over the cluster's socket) only for a local project
/// named with `--dir DIR` or `--local`; any other is checked through its Realtime join alone,
/// and the report says what that leaves out.
struct RealtimeCheckCommand: Sendable, Equatable {
  var table: String
  /// `--dir`: the local project in DIR.
  var directory: String?
  var options: ShellOptions

  func run() async throws -> ExitCode {
    var options = options
    var databaseURL: String?
    var localKeys: [String] = []
    if let directory {
      if options.url != nil || options.profile != nil {
        throw UsageError(
          "choose one project: --dir names the local project in DIR, not with --url or --profile")
      }
      var local = LocalProjectOptions()
      local.dataDir = directory
      let endpoint = try LocalProject.ensureRunning(local)
      options.url = endpoint.url
      options.key = endpoint.apiKey
      options.serviceKey = endpoint.serviceKey
      databaseURL = endpoint.databaseURL
      localKeys = ProjectTargeting.keys(of: endpoint)
    }
    let environment = ProcessInfo.processInfo.environment
    let (chosen, target) = try ProjectTargeting.choose(
      options,
      needsName: ProjectChoice.underCI(environment)
        ? ", and CI is set (CI=\(ProjectChoice.shown(environment["CI"] ?? "")))" : nil)
    if databaseURL == nil, case .local = try ProjectChoice.resolve(options).target {
      databaseURL = try LocalProject.ensureRunning(LocalProjectOptions()).databaseURL
    }
    _ = target
    // The project in DIR is one project whichever of its keys a session was signed in with.
    var project = chosen
    project.otherKeys += localKeys
    let executor = await StatementExecutor.connected(project: project, options: options)
    let check = RealtimeCheck(table: table)
    return await check.run(
      executor: executor, facts: databaseURL.map(Self.facts(databaseURL:)),
      unavailable:
        "not a local project named with --local or --dir DIR (the only databases snm reads)")
  }

  /// The facts from the local project's database: the catalog, then the rows counted as the
  /// user's role with their claims, in a transaction rolled back.
  static func facts(databaseURL: String) -> RealtimeCheck.Facts {
    { schema, table, role, claims in
      let connection = try PGConnection(conninfo: databaseURL)
      defer { connection.close() }
      let about = try connection.execute(
        """
        select exists(select 1 from pg_publication_tables p where p.pubname = 'supabase_realtime'
            and p.schemaname = $1 and p.tablename = $2),
          c.relreplident::text, c.relrowsecurity::text,
          coalesce((select string_agg(p.policyname::text, ',' order by p.policyname)
            from pg_policies p where p.schemaname = $1 and p.tablename = $2
            and p.cmd in ('SELECT', 'ALL') and p.roles && array[$3, 'public']::name[]), '')
        from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = $1 and c.relname = $2 and c.relkind in ('r', 'p')
        """, [schema, table, role])
      guard let row = about.rows.first, row.count == 4 else { return nil }
      let name = SQLText.qualified(schema, table)
      let count =
        "select count(*) from (select 1 from \(name) limit \(RealtimeTableFacts.sampleLimit)) s"
      let rows = Int(try connection.execute(count).rows.first?.first.flatMap { $0 } ?? "") ?? 0
      try connection.executeScript("begin")
      defer { _ = try? connection.executeScript("rollback") }
      let sub = (try? JSONValue(parsing: claims))?["sub"]?.stringValue ?? ""
      _ = try connection.execute(
        RequestRole(role: role, claims: claims, settings: [.init("request.jwt.claim.sub", sub)])
          .prelude)
      let visible = Int(try connection.execute(count).rows.first?.first.flatMap { $0 } ?? "") ?? 0
      return RealtimeTableFacts(
        inPublication: row[0] == "t", replicaIdentity: row[1] ?? "d",
        rowSecurity: row[2] == "true",
        selectPolicies: (row[3] ?? "").split(separator: ",").map(String.init),
        visibleRows: visible, rows: rows)
    }
  }
}
