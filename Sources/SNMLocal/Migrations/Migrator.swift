import Foundation
import SNMGateway
import SNMLocalAuth
import SNMLocalStorage

/// Applies the bootstrap and then migrations in name order, each once, recorded in
/// `supabase_migrations.schema_migrations`.
///
/// ```swift
/// let applied = try Migrator(migrationsDir: nil).apply(on: adminConnection)   // demo schema
/// ```
/// Throws `LocalProjectError` naming the file and PostgreSQL's message when one fails; a failed
/// migration is rolled back whole and the later ones are not tried.
struct Migrator {
  /// A folder of `*.sql` files (Supabase CLI layout), or `nil` for the demo schema.
  var migrationsDir: String?
  /// The folder is a project folder's `supabase/migrations`: when it does not exist the project
  /// has no migrations of its own (no demo schema either).
  var folderMigrations = false
  /// False: `[db.migrations] enabled = false`, the folder's migrations are not applied.
  var applyFolderMigrations = true
  /// Told once, before the first migration to apply, how many there are (a start says so).
  var announce: ((Int) -> Void)? = nil

  /// The migrations to apply, in order: (version, source description, SQL).
  func migrations() throws(LocalProjectError) -> [(version: String, source: String, sql: String)] {
    guard let directory = migrationsDir else {
      return DemoSchemaSQL.migrations.map { ($0.version, "demo schema \($0.version)", $0.sql) }
    }
    if folderMigrations,
      !applyFolderMigrations || !FileManager.default.fileExists(atPath: directory)
    {
      return []
    }
    let names: [String]
    do {
      names = try FileManager.default.contentsOfDirectory(atPath: directory)
        .filter { $0.hasSuffix(".sql") }.sorted()
    } catch {
      throw LocalProjectError(.usage, "cannot read the migrations folder \(directory)")
    }
    var result: [(String, String, String)] = []
    for name in names {
      let path = directory + "/" + name
      guard let sql = try? String(contentsOfFile: path, encoding: .utf8) else {
        throw LocalProjectError(.usage, "cannot read migration \(path) as UTF-8 text")
      }
      result.append((String(name.dropLast(4)), path, sql))
    }
    return result
  }

  /// Applies what is missing; returns the versions applied now.
  func apply(on connection: PGConnection) throws(LocalProjectError) -> [String] {
    let pending = try migrations()
    do {
      // As on Supabase: `extensions` on the search path of the connection that applies the
      // migrations (the bootstrap gives it to every new session of the database).
      _ = try connection.execute(BootstrapSQL.sessionSearchPath)
      try connection.executeScript(BootstrapSQL.migrationsTable)
      _ = try connection.execute("select pg_advisory_lock(74210519)")
    } catch {
      throw LocalProjectError(.unavailable, "cannot prepare the migrations table: \(error.message)")
    }
    defer { _ = try? connection.execute("select pg_advisory_unlock(74210519)") }
    let done: Set<String>
    do {
      let rows = try connection.execute("select version from supabase_migrations.schema_migrations")
      done = Set(rows.rows.compactMap { $0.first ?? nil })
    } catch {
      throw LocalProjectError(.unavailable, "cannot read applied migrations: \(error.message)")
    }
    var applied: [String] = []
    let all =
      BootstrapSQL.steps
      + [(StorageSchemaSQL.version, "snm storage schema", StorageSchemaSQL.script)]
      + [(AuthSchemaSQL.version, "snm auth flows schema", AuthSchemaSQL.script)]
      + [(AuthSchemaSQL.phoneVersion, "snm auth phone provider", AuthSchemaSQL.phoneScript)]
      + [(AuthSchemaSQL.guessesVersion, "snm auth wrong guesses", AuthSchemaSQL.guessesScript)]
      + [(AuthSchemaSQL.flowStateVersion, "snm auth pkce flows", AuthSchemaSQL.flowStateScript)]
      + [(AuthSchemaSQL.identitiesVersion, "snm auth identities", AuthSchemaSQL.identitiesScript)]
      + [
        (
          AuthSchemaSQL.flowReferrerVersion, "snm auth oauth flows",
          AuthSchemaSQL.flowReferrerScript
        )
      ]
      + [
        (
          AuthSchemaSQL.spentTokensVersion, "snm auth spent test tokens",
          AuthSchemaSQL.spentTokensScript
        )
      ]
      + [(OAuthSchemaSQL.version, "snm auth oauth server clients", OAuthSchemaSQL.script)]
      + pending
    let toApply = all.filter { !done.contains($0.0) }.count
    if toApply > 0 { announce?(toApply) }
    for migration in all where !done.contains(migration.0) {
      do {
        _ = try connection.execute("begin")
        if migrationsDir == nil, let missing = try missingTables(for: migration.0, on: connection) {
          // Recorded as skipped, so it is not tried at every start.
          _ = try connection.execute(
            "insert into supabase_migrations.schema_migrations (version, name) values ($1, $2)",
            [migration.0, "\(migration.1) (skipped: \(missing) dropped)"])
          _ = try connection.execute("commit")
          continue
        }
        try connection.executeScript(migration.2)
        _ = try connection.execute(
          "insert into supabase_migrations.schema_migrations (version, name) values ($1, $2)",
          [migration.0, migration.1])
        _ = try connection.execute("commit")
        applied.append(migration.0)
      } catch {
        _ = try? connection.execute("rollback")
        var text = "migration \(migration.1) failed: \(error.message)"
        if let detail = error.detail { text += " (\(detail))" }
        throw LocalProjectError(.failed, text)
      }
    }
    return applied
  }

  /// The demo tables `version` works on that the project no longer has ("public.mate, ..."), or
  /// nil when it has them all (or the migration needs none).
  func missingTables(for version: String, on connection: PGConnection) throws(PGError) -> String? {
    guard let tables = DemoSchemaSQL.requiredTables[version] else { return nil }
    let rows = try connection.execute(
      "select name from unnest($1::text[]) with ordinality as t(name, n) "
        + "where to_regclass(name) is null order by n",
      ["{" + tables.joined(separator: ",") + "}"])
    let missing = rows.rows.compactMap { $0.first ?? nil }
    return missing.isEmpty ? nil : missing.joined(separator: ", ")
  }
}
