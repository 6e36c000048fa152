/// The catalog query behind the schema cache: one statement returning one JSON document with the
/// exposed schemas' tables, columns, keys, foreign keys, functions and type names.
///
/// `impersonated_settings` are the `ALTER ROLE ... SET` settings (those any role may set, such as
/// `statement_timeout`, or the connecting one was granted SET on) of each role the connecting one
/// may become, as PostgREST 13 reads them (`queryRoleSettings`): in all databases only, the name
/// as Postgres keeps it (`TimeZone`), the value lower-cased. `timezones` are the names
/// `Prefer: timezone=` may give (`pg_timezone_names`).
/// A routine's `settings` are its own `SET` settings (`proconfig`) that PostgREST hoists into the
/// transaction before calling it: those matching `pgrst.db_hoisted_tx_settings` (its
/// db-hoisted-tx-settings, regular expressions; by default `statement_timeout`,
/// `plan_filter.statement_cost_limit`, `default_transaction_isolation`).
/// `schema_version` is the schema version of `ClaimsPolicies`, read in the catalog's snapshot;
/// a table's `claims_policies` whether its policies read nothing of the request but its claims.
/// `rls_bypassers` are the roles no policy applies to (`BYPASSRLS`, superusers);
/// `reads_may_run_database_code` whether a read of a table's own columns might call a function
/// written in the database (`KnownCodeReads.swift`): an operator or an operator class's
/// support function that is no built-in one and not in C, or a `response.*` setting a role or
/// database gives its sessions.
/// `representations` are PostgREST's domain representations (SchemaCache.hs
/// `dataRepresentations`): implicit casts by a function, executable by the connecting role, from a
/// domain to json or text, or from json or text to a domain.
/// `$1` is the default exposed schemas (`public`); a `pgrst.db_schemas` / `pgrst.db_max_rows`
/// setting on the connecting role (`ALTER ROLE authenticator SET pgrst.db_schemas = 'public, api'`,
/// PostgREST's in-database configuration) overrides it. Run with `search_path = pg_catalog` so
/// `format_type` qualifies every type outside pg_catalog.
extension SchemaIntrospection {
  static let sql = """
    WITH role_settings AS (
      SELECT split_part(s.item, '=', 1) AS key, substr(s.item, strpos(s.item, '=') + 1) AS value
      FROM pg_db_role_setting r, unnest(r.setconfig) AS s(item)
      WHERE r.setrole = (SELECT oid FROM pg_roles WHERE rolname = current_user)
        AND r.setdatabase IN (0, (SELECT oid FROM pg_database WHERE datname = current_database()))
    ),
    exposed AS (
      SELECT array_agg(btrim(x.name) ORDER BY x.ord) AS names
      FROM unnest(string_to_array(coalesce(
        (SELECT value FROM role_settings WHERE key = 'pgrst.db_schemas' LIMIT 1), $1), ','))
        WITH ORDINALITY AS x(name, ord)
      WHERE btrim(x.name) <> ''
    ),
    hoisted AS (
      SELECT array_agg(btrim(x.name)) AS names
      FROM unnest(string_to_array(coalesce(
        (SELECT value FROM role_settings WHERE key = 'pgrst.db_hoisted_tx_settings' LIMIT 1),
        'statement_timeout,plan_filter.statement_cost_limit,default_transaction_isolation'), ','))
        AS x(name)
      WHERE btrim(x.name) <> ''
    ),
    rels AS (
      SELECT c.oid, n.nspname, c.relname, c.relkind, c.relrowsecurity FROM pg_class c
      JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname IN (SELECT unnest(names) FROM exposed) AND c.relkind IN ('r', 'v', 'm', 'f', 'p')
        AND NOT c.relispartition
    )
    SELECT json_build_object(
      'aggregates_enabled',
        (SELECT value FROM role_settings WHERE key = 'pgrst.db_aggregates_enabled' LIMIT 1),
      'schemas', (SELECT names FROM exposed),
      'max_rows', (SELECT value FROM role_settings WHERE key = 'pgrst.db_max_rows' LIMIT 1),
      'pre_request', (SELECT value FROM role_settings WHERE key = 'pgrst.db_pre_request' LIMIT 1),
      'extra_search_path',
        (SELECT value FROM role_settings WHERE key = 'pgrst.db_extra_search_path' LIMIT 1),
      'plan_enabled', (SELECT value FROM role_settings WHERE key = 'pgrst.db_plan_enabled' LIMIT 1),
      'representations', coalesce((SELECT json_agg(json_build_array(
          format_type(c.castsource, NULL), format_type(c.casttarget, NULL), fn.nspname, f.proname))
        FROM pg_cast c
        JOIN pg_type src ON src.oid = c.castsource JOIN pg_type dst ON dst.oid = c.casttarget
        JOIN pg_proc f ON f.oid = c.castfunc JOIN pg_namespace fn ON fn.oid = f.pronamespace
        WHERE c.castcontext = 'i' AND c.castmethod = 'f'
          AND has_function_privilege(c.castfunc, 'execute')
          AND ((src.typtype = 'd' AND c.casttarget IN ('json'::regtype, 'text'::regtype))
            OR (dst.typtype = 'd' AND c.castsource IN ('json'::regtype, 'text'::regtype)))), '[]'),
      'media_handlers', coalesce((SELECT json_agg(json_build_array(h.handler_schema,
          h.handler_name, h.target_schema, h.target_name, h.media_type, h.base_type, h.is_cast, h.send))
        FROM (\(mediaHandlers)) h), '[]'),
      'timezones', (SELECT json_agg(name) FROM pg_timezone_names),
      'rls_bypassers', (SELECT json_agg(rolname) FROM pg_roles WHERE rolbypassrls OR rolsuper),
      'schema_version', \(ClaimsPolicies.versionSQL),
      'reads_may_run_database_code', EXISTS (SELECT 1 FROM pg_operator o
          JOIN pg_proc f ON f.oid = o.oprcode JOIN pg_language l ON l.oid = f.prolang
          WHERE f.oid >= 16384 AND l.lanname NOT IN ('internal', 'c'))
        OR EXISTS (SELECT 1 FROM pg_amproc a
          JOIN pg_proc f ON f.oid = a.amproc JOIN pg_language l ON l.oid = f.prolang
          WHERE f.oid >= 16384 AND l.lanname NOT IN ('internal', 'c'))
        OR EXISTS (SELECT 1 FROM pg_db_role_setting r, unnest(r.setconfig) AS s(item)
          WHERE lower(s.item) LIKE 'response.%'),
      'impersonated_settings', (SELECT json_object_agg(x.rolname, x.settings) FROM (
        SELECT ir.rolname, json_agg(json_build_array(split_part(c.item, '=', 1),
          lower(substr(c.item, strpos(c.item, '=') + 1))) ORDER BY c.ord) AS settings
        FROM pg_auth_members m
        JOIN pg_roles ir ON ir.oid = m.roleid
        JOIN pg_db_role_setting s ON s.setrole = ir.oid AND s.setdatabase = 0
        CROSS JOIN LATERAL unnest(s.setconfig) WITH ORDINALITY AS c(item, ord)
        JOIN pg_settings p ON p.name = split_part(c.item, '=', 1) AND (p.context = 'user'
          OR has_parameter_privilege(current_user, p.name, 'SET'))
        WHERE m.member = (SELECT oid FROM pg_roles WHERE rolname = current_user)
        GROUP BY ir.rolname) x),
      'tables', coalesce((SELECT json_agg(json_build_object(
        'schema', r.nspname, 'name', r.relname, 'kind', r.relkind::text, 'oid', r.oid::int8,
        'row_security', r.relrowsecurity,
        'claims_policies', \(ClaimsPolicies.cacheSQL),
        'comment', obj_description(r.oid, 'pg_class'),
        'insertable', r.relkind IN ('r', 'p')
          OR (pg_relation_is_updatable(r.oid::regclass, true) & 8) = 8,
        'updatable', r.relkind IN ('r', 'p')
          OR (pg_relation_is_updatable(r.oid::regclass, true) & 4) = 4,
        'deletable', r.relkind IN ('r', 'p')
          OR (pg_relation_is_updatable(r.oid::regclass, true) & 16) = 16,
        'columns', coalesce((SELECT json_agg(json_build_object(
          'name', a.attname,
          'type', format_type(a.atttypid, NULL),
          'full_type', format_type(a.atttypid, a.atttypmod),
          'category', t.typcategory::text,
          'nullable', NOT a.attnotnull,
          'default', CASE
            WHEN a.attidentity <> '' THEN (SELECT format('nextval(%L::regclass)',
                format('%I.%I', sn.nspname, s.relname))
              FROM pg_depend dep JOIN pg_class s ON s.oid = dep.objid
              JOIN pg_namespace sn ON sn.oid = s.relnamespace
              WHERE dep.refobjid = r.oid AND dep.refobjsubid = a.attnum AND s.relkind = 'S'
                AND dep.classid = 'pg_class'::regclass LIMIT 1)
            WHEN a.attgenerated <> '' THEN NULL
            ELSE pg_get_expr(d.adbin, d.adrelid) END,
          'comment', col_description(r.oid, a.attnum),
          'max_length', CASE WHEN a.atttypmod > 4 AND t.typname IN ('varchar', 'bpchar')
            THEN a.atttypmod - 4 END,
          'enum', (SELECT json_agg(e.enumlabel ORDER BY e.enumsortorder) FROM pg_enum e
            WHERE e.enumtypid = CASE WHEN t.typtype = 'd' THEN t.typbasetype ELSE t.oid END),
          'element', CASE WHEN t.typcategory = 'A' THEN format_type(t.typelem, NULL) END
          ) ORDER BY a.attnum)
          FROM pg_attribute a JOIN pg_type t ON t.oid = a.atttypid
          LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
          WHERE a.attrelid = r.oid AND a.attnum > 0 AND NOT a.attisdropped), '[]'),
        'primary_key', coalesce((SELECT json_agg(a.attname ORDER BY k.ord)
          FROM pg_constraint con, unnest(con.conkey) WITH ORDINALITY AS k(num, ord)
          JOIN pg_attribute a ON a.attnum = k.num
          WHERE con.conrelid = r.oid AND con.contype = 'p' AND a.attrelid = r.oid), '[]'),
        'unique_keys', coalesce((SELECT json_agg((SELECT json_agg(a.attname)
            FROM unnest(con.conkey) AS k(num) JOIN pg_attribute a
              ON a.attrelid = con.conrelid AND a.attnum = k.num))
          FROM pg_constraint con WHERE con.conrelid = r.oid AND con.contype IN ('p', 'u')), '[]')
        ) ORDER BY r.nspname, r.relname) FROM rels r), '[]'),
      'foreign_keys', coalesce((SELECT json_agg(json_build_object(
        'name', con.conname, 'schema', ns.nspname, 'table', cl.relname,
        'foreign_schema', fns.nspname, 'foreign_table', fcl.relname,
        'table_oid', cl.oid::int8, 'foreign_oid', fcl.oid::int8,
        'one_to_one', EXISTS (SELECT 1 FROM pg_constraint u WHERE u.conrelid = con.conrelid
          AND u.contype IN ('p', 'u') AND (SELECT array_agg(x ORDER BY x) FROM unnest(u.conkey) x)
            = (SELECT array_agg(x ORDER BY x) FROM unnest(con.conkey) x)),
        'columns', (SELECT json_agg(json_build_array(a.attname, fa.attname, a.attnum, fa.attnum)
            ORDER BY k.ord)
          FROM unnest(con.conkey, con.confkey) WITH ORDINALITY AS k(num, fnum, ord)
          JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.num
          JOIN pg_attribute fa ON fa.attrelid = con.confrelid AND fa.attnum = k.fnum)
        ) ORDER BY ns.nspname, cl.relname, con.conname)
        FROM pg_constraint con
        JOIN pg_class cl ON cl.oid = con.conrelid JOIN pg_namespace ns ON ns.oid = cl.relnamespace
        JOIN pg_class fcl ON fcl.oid = con.confrelid
        JOIN pg_namespace fns ON fns.oid = fcl.relnamespace
        WHERE con.contype = 'f' AND con.conparentid = 0
          AND ns.nspname NOT IN ('pg_catalog', 'information_schema')
          AND fns.nspname NOT IN ('pg_catalog', 'information_schema')), '[]'),
      'views', coalesce((SELECT json_agg(json_build_object('oid', r.oid::int8,
          'definition', (SELECT w.ev_action::text FROM pg_rewrite w
            WHERE w.ev_class = r.oid AND w.rulename = '_RETURN')))
        FROM rels r WHERE r.relkind IN ('v', 'm')), '[]'),
      'primary_keys', coalesce((SELECT json_agg(json_build_object('table_oid', con.conrelid::int8,
          'columns', (SELECT json_agg(json_build_array(a.attname, a.attnum) ORDER BY k.ord)
            FROM unnest(con.conkey) WITH ORDINALITY AS k(num, ord)
            JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.num)))
        FROM pg_constraint con JOIN pg_namespace cn ON cn.oid = con.connamespace
        WHERE con.contype = 'p' AND cn.nspname NOT IN ('pg_catalog', 'information_schema')
          AND EXISTS (SELECT 1 FROM rels r WHERE r.relkind IN ('v', 'm'))), '[]'),
      'computed_relationships', coalesce((SELECT json_agg(json_build_object(
          'function_schema', fn.nspname, 'function', p.proname,
          'schema', ac.nspname, 'table', a.relname, 'foreign_schema', rc.nspname,
          'foreign_table', r.relname, 'to_one', NOT p.proretset OR p.prorows = 1)
          ORDER BY fn.nspname, p.proname, p.oid)
        FROM pg_proc p JOIN pg_namespace fn ON fn.oid = p.pronamespace
        JOIN pg_class a ON a.reltype = p.proargtypes[0] AND a.relkind IN ('r', 'v', 'm', 'f', 'p')
        JOIN pg_namespace ac ON ac.oid = a.relnamespace
        JOIN pg_class r ON r.reltype = p.prorettype AND r.relkind IN ('r', 'v', 'm', 'f', 'p')
        JOIN pg_namespace rc ON rc.oid = r.relnamespace
        WHERE p.pronargs = 1 AND p.prokind = 'f'
          AND fn.nspname NOT IN ('pg_catalog', 'information_schema')), '[]'),
      'routines', coalesce((SELECT json_agg(json_build_object(
        'schema', n.nspname, 'name', p.proname, 'comment', obj_description(p.oid, 'pg_proc'),
        'volatility', p.provolatile::text, 'returns_set', p.proretset,
        'return_type', format_type(p.prorettype, NULL), 'return_kind', rt.typtype::text,
        'return_schema', rn.nspname, 'return_relation', rc.relname,
        'return_relation_kind', rc.relkind::text,
        'return_columns', (SELECT json_agg(json_build_object(
            'name', a.attname, 'type', format_type(a.atttypid, NULL),
            'nullable', NOT a.attnotnull) ORDER BY a.attnum)
          FROM pg_attribute a WHERE a.attrelid = rt.typrelid AND rt.typrelid <> 0
            AND a.attnum > 0 AND NOT a.attisdropped),
        'args', coalesce((SELECT json_agg(json_build_object(
            'name', coalesce(x.name, ''), 'type', format_type(x.type, NULL),
            'mode', coalesce(x.mode::text, 'i')) ORDER BY x.ord)
          FROM unnest(coalesce(p.proallargtypes, p.proargtypes::oid[]), p.proargnames,
            p.proargmodes) WITH ORDINALITY AS x(type, name, mode, ord)), '[]'),
        'defaults', p.pronargdefaults,
        'settings', (SELECT json_agg(json_build_array(substr(c.item, 1, strpos(c.item, '=') - 1),
            substr(c.item, strpos(c.item, '=') + 1)) ORDER BY c.ord)
          FROM unnest(p.proconfig) WITH ORDINALITY AS c(item, ord)
          WHERE c.item ~ ANY(coalesce((SELECT names FROM hoisted), ARRAY[]::text[])))
        ) ORDER BY n.nspname, p.proname, p.oid)
        FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
        JOIN pg_type rt ON rt.oid = p.prorettype
        LEFT JOIN pg_class rc ON rc.oid = rt.typrelid
        LEFT JOIN pg_namespace rn ON rn.oid = rc.relnamespace
        WHERE n.nspname IN (SELECT unnest(names) FROM exposed) AND p.prokind = 'f'), '[]'),
      'types', coalesce((SELECT json_agg(json_build_array(n.nspname, t.typname,
          format_type(t.oid, NULL)))
        FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace
        WHERE (n.nspname = 'pg_catalog' OR n.nspname IN (SELECT unnest(names) FROM exposed))
          AND t.typisdefined AND t.typtype IN ('b', 'c', 'd', 'e', 'r', 'm')
          AND (t.typrelid = 0 OR EXISTS (SELECT 1 FROM pg_class tc
            WHERE tc.oid = t.typrelid AND tc.relkind = 'c'))
          AND NOT EXISTS (SELECT 1 FROM pg_type e JOIN pg_class ec ON ec.oid = e.typrelid
            WHERE e.oid = t.typelem AND ec.relkind <> 'c')), '[]')
    )::text
    """

  /// PostgREST's media type handlers (SchemaCache.hs `mediaHandlers`): a domain named after a
  /// media type (`create domain "text/plain" as text`, `"*/*"` for any) marks what produces it.
  /// An aggregate of one argument (a relation's row type, or `anyelement` for every relation)
  /// returning such a domain handles that relation; a function returning one (not a set) is its
  /// own handler, its value cast to the domain (`is_cast`).
  static let mediaHandlers = """
    WITH media_types AS (
      SELECT t.oid, t.typname AS name, lower(t.typname) AS typname, t.typnamespace,
        format_type(b.oid, NULL) AS base, b.typsend::regproc::text AS send
      FROM pg_type t JOIN pg_type b ON t.typbasetype = b.oid
      WHERE t.typbasetype <> 0
        AND (t.typname ~* '^[A-Za-z0-9.-]+/[A-Za-z0-9.+-]+$' OR t.typname = '*/*')
    ),
    exposed_ns AS (
      SELECT oid FROM pg_namespace WHERE nspname IN (SELECT unnest(names) FROM exposed)
    )
    SELECT ps.nspname AS handler_schema, p.proname AS handler_name,
      CASE WHEN a.typname = 'anyelement' THEN NULL ELSE an.nspname END AS target_schema,
      CASE WHEN a.typname = 'anyelement' THEN NULL ELSE ac.relname END AS target_name,
      mt.typname AS media_type, mt.base AS base_type, false AS is_cast, mt.send
    FROM media_types mt
    JOIN pg_proc p ON p.prorettype = mt.oid
    JOIN pg_namespace ps ON ps.oid = p.pronamespace
    JOIN pg_aggregate agg ON agg.aggfnoid = p.oid
    JOIN pg_type a ON a.oid = p.proargtypes[0]
    LEFT JOIN pg_class ac ON ac.oid = a.typrelid
    LEFT JOIN pg_namespace an ON an.oid = ac.relnamespace
    WHERE p.pronamespace IN (SELECT oid FROM exposed_ns) AND p.pronargs = 1
      AND (a.typname = 'anyelement' OR ac.relkind IN ('v', 'r', 'm', 'f', 'p'))
    UNION ALL
    SELECT ts.nspname, mt.name, ps.nspname, p.proname, mt.typname, mt.base, true, mt.send
    FROM pg_proc p
    JOIN pg_namespace ps ON ps.oid = p.pronamespace
    JOIN media_types mt ON p.prorettype = mt.oid
    JOIN pg_namespace ts ON ts.oid = mt.typnamespace
    WHERE p.pronamespace IN (SELECT oid FROM exposed_ns) AND NOT p.proretset AND p.prokind = 'f'
    """
}
