import Synchronization

/// A table's row-security policies when all of them run only claims code: Postgres's own
/// operators and stable or immutable functions but `current_setting` (and its like), and
/// functions of the `auth` schema whose bodies read no setting but the claims
/// (`request.jwt.claims`, and the legacy `request.jwt.claim.*` no prelude sets), as snm local's
/// `auth.uid()`, `auth.role()`, `auth.jwt()` and `auth.email()` (`claimsFunctionSQL`). Such a
/// policy reads nothing of the request but its claims: a read under it sends the role,
/// `search_path`, `timezone`, the role's settings and the claims, and not the request's method,
/// path, headers and cookies (`KnownCodeReads.Prelude.claims`).
///
/// The schema cache may be stale: a policy added or an `auth` function replaced while the event
/// triggers' `NOTIFY` is on its way, or DDL run where they do not fire
/// (`session_replication_role = replica`). So such a read carries a guard as its first condition
/// (`condition(version:)`): the schema version (`extensions.snm_schema_version`, moved on at
/// the commit of any transaction that ran DDL, in that transaction, by triggers enabled
/// `ALWAYS`, so that they fire under `replica` too) must be the one the schema cache was
/// read at, in the same snapshot as its catalog. The guard is a condition without columns, so
/// Postgres evaluates it once (a Result node's one-time filter) before the scan, before any
/// policy runs; when the version differs, `extensions.snm_schema_changed()` raises (SQLSTATE
/// `SNMSV`) and the read goes again with the whole prelude. Postgres 15 records no dependency
/// on its own functions (`pg_depend`), so a policy's use of `current_setting` is read from its
/// stored expression (`cacheSQL`).
enum ClaimsPolicies {
  /// The SQLSTATE of `extensions.snm_schema_changed()`.
  static let schemaChanged = "SNMSV"

  /// Whether a read's guard found the schema version moved on behind a schema cache. DDL run
  /// under `session_replication_role = replica` moves the version but asks for no reload (and
  /// the gateway must not reload on its own: hosted PostgREST would not see that DDL either),
  /// so every later guard would fail too and its read go twice; once one has failed, reads under
  /// claims policies send the whole prelude from the first try until the next load
  /// (`KnownCodeReads.prelude`). Never cleared: a load makes a new cache, with a mark of its own,
  /// so a guard that failed under a cache since replaced marks only that one.
  final class StaleVersion: Sendable {
    private let failed = Atomic<Bool>(false)

    var isKnown: Bool { failed.load(ordering: .relaxed) }

    func note() { failed.store(true, ordering: .relaxed) }
  }

  /// The read's guard at schema version `version`: true when the version is still `version`,
  /// else an error (also when the version's row is gone).
  static func condition(version: Int) -> String {
    "(SELECT CASE WHEN (SELECT v.version FROM extensions.snm_schema_version v) "
      + "OPERATOR(pg_catalog.=) \(version) THEN true ELSE extensions.snm_schema_changed() END)"
  }

  /// The schema cache's `schema_version`: null when the bootstrap step that keeps it has not run
  /// or the connecting role may not read it (then no read carries the guard and none sends the
  /// claims' prelude). A one-row table's value, read by name only when the table is there
  /// (`query_to_xml` runs its query in the calling statement's snapshot).
  static let versionSQL = """
    CASE WHEN to_regclass('extensions.snm_schema_version') IS NOT NULL
      AND has_schema_privilege('extensions', 'usage')
      AND has_table_privilege('extensions.snm_schema_version', 'select') THEN
      (xpath('/row/v/text()', query_to_xml(
        'SELECT version AS v FROM extensions.snm_schema_version LIMIT 1', false, true, '')))[1]::text
    END
    """

  /// Whether the function `f` (a `pg_proc` row) is a claims function: in the `auth` schema, in
  /// SQL, no arguments, not set-returning, not volatile, no security definer or own settings, a
  /// body of text (a `BEGIN ATOMIC` one's is empty) that, once its `current_setting` calls of
  /// the claims and its string literals are taken out, holds only `select`, `coalesce`,
  /// `nullif`, the casts to `jsonb`, `json`, `uuid` and `text`, `true`, parentheses, commas,
  /// `::`, `->`, `->>` and `=`.
  static let claimsFunctionSQL = #"""
    f.pronamespace = (SELECT oid FROM pg_namespace WHERE nspname = 'auth')
      AND f.prolang = (SELECT oid FROM pg_language WHERE lanname = 'sql')
      AND f.prokind = 'f' AND NOT f.proretset AND NOT f.prosecdef AND f.proconfig IS NULL
      AND f.pronargs = 0 AND f.provolatile <> 'v' AND lower(f.prosrc) ~ '\mselect\M'
      AND regexp_replace(regexp_replace(regexp_replace(lower(f.prosrc),
        'current_setting\s*\(\s*''request\.jwt\.claims?(\.[a-z_]+)?''\s*,\s*true\s*\)', ' ', 'g'),
        '''[^'']*''', ' ', 'g'),
        '\m(select|coalesce|nullif|jsonb|json|uuid|text|true)\M', ' ', 'g') ~ '^[\s(),:>=-]*$'
    """#

  /// The expression nodes a policy of claims code may hold (`pg_node_tree` names): no sublink,
  /// no domain coercion, no aggregate, no comparison of a row or of the greatest and least.
  static let claimsNodes = [
    "VAR", "CONST", "FUNCEXPR", "OPEXPR", "DISTINCTEXPR", "NULLIFEXPR", "SCALARARRAYOPEXPR",
    "BOOLEXPR", "RELABELTYPE", "COERCEVIAIO", "CASEEXPR", "CASEWHEN", "CASETESTEXPR",
    "COALESCEEXPR", "NULLTEST", "BOOLEANTEST", "ARRAYEXPR", "SQLVALUEFUNCTION",
  ].map { "'\($0)'" }.joined(separator: ", ")

  /// The schema cache's `claims_policies` of the table `r` (a `pg_class` row): true when row
  /// security is on and every policy's expressions (`polqual`, `polwithcheck`, read as node
  /// trees) hold only `claimsNodes`, Postgres's own operators, and functions that are Postgres's
  /// own, stable or immutable and not `current_setting` or `pg_show_all_settings`, or claims
  /// functions.
  static let cacheSQL = #"""
    r.relrowsecurity AND NOT EXISTS (SELECT FROM pg_policy p,
        LATERAL (SELECT coalesce(p.polqual::text, '') || ' ' || coalesce(p.polwithcheck::text, '')
          AS tree) t
        WHERE p.polrelid = r.oid AND (
          EXISTS (SELECT FROM regexp_matches(t.tree, '\{([A-Z_]+)', 'g') AS m(node)
            WHERE m.node[1] NOT IN (\#(claimsNodes)))
          OR EXISTS (SELECT FROM regexp_matches(t.tree, ':opno (\d+)', 'g') AS m(id)
            WHERE m.id[1]::int8 >= 16384)
          OR EXISTS (SELECT FROM
              regexp_matches(t.tree, ':(?:funcid|opfuncid|hashfuncid|negfuncid) (\d+)', 'g')
                AS m(id)
              LEFT JOIN pg_proc f ON f.oid = m.id[1]::oid
            WHERE m.id[1] <> '0' AND NOT coalesce((f.oid < 16384 AND f.provolatile <> 'v'
                AND f.proname NOT IN ('current_setting', 'pg_show_all_settings'))
              OR (f.oid >= 16384 AND \#(claimsFunctionSQL)), false))))
    """#
}
