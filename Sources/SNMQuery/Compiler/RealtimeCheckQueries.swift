/// What `realtime check` reads in a project's database, when snm can read it (a local project):
/// the one text the check runs and `explain realtime check` prints.
///
/// ```swift
/// connection.execute(RealtimeCheckQueries.table, [schema, table, role])
/// connection.execute(RealtimeCheckQueries.count("\"public\".\"todos\""))
/// ```
public enum RealtimeCheckQueries {
  /// The most rows counted either way.
  public static let sampleLimit = 10_000

  /// One row about `$1.$2` for role `$3`: in the `supabase_realtime` publication, the replica
  /// identity, RLS on, the SELECT (or ALL) policies that apply to the role; no row when the table
  /// does not exist. Run as the superuser.
  public static let table = """
    select exists(select 1 from pg_publication_tables p where p.pubname = 'supabase_realtime'
        and p.schemaname = $1 and p.tablename = $2),
      c.relreplident::text, c.relrowsecurity::text,
      coalesce((select string_agg(p.policyname::text, ',' order by p.policyname)
        from pg_policies p where p.schemaname = $1 and p.tablename = $2
        and p.cmd in ('SELECT', 'ALL') and p.roles && array[$3, 'public']::name[]), '')
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = $1 and c.relname = $2 and c.relkind in ('r', 'p')
    """

  /// The rows of `qualified` (a quoted `"schema"."table"`), up to ``sampleLimit``: run as the
  /// superuser, then again as the user's role with their claims, in a transaction rolled back.
  public static func count(_ qualified: String) -> String {
    "select count(*) from (select 1 from \(qualified) limit \(sampleLimit)) s"
  }

  /// How a private channel's policies are tried: Realtime's own probe (the local project's
  /// Realtime runs the same code to authorise a join).
  public static let channelProbe =
    "in a transaction rolled back: probe rows for the topic are inserted into realtime.messages "
    + "as the superuser, read back as this user's role and claims with realtime.topic set "
    + "(read: join, receive), and one more inserted as them (write: broadcast, presence)"
}
