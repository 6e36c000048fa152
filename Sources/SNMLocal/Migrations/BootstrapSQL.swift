/// What every project gets before its migrations: Supabase's roles, the `auth` schema and its
/// helper functions. Runs once per cluster (recorded as version `snm_bootstrap_1`).
enum BootstrapSQL {
  static let version = "snm_bootstrap_1"

  /// What runs before a project's own migrations, in order: (version, name, SQL).
  static let steps: [(version: String, source: String, sql: String)] = [
    (version, "snm bootstrap", script),
    (roleTimeoutsVersion, "snm bootstrap: role timeouts", roleTimeouts),
    (ddlWatchVersion, "snm bootstrap: schema change notifications", ddlWatch),
    (realtimeVersion, "snm bootstrap: realtime", realtime),
    (realtimeSendVersion, "snm bootstrap: realtime.send", realtimeSend),
    (defaultsVersion, "snm bootstrap: a new Supabase project's extensions", defaults),
    (schemaVersionVersion, "snm bootstrap: schema version", schemaVersion),
    (
      schemaVersionAtCommitVersion, "snm bootstrap: schema version at commit", schemaVersionAtCommit
    ),
    (
      schemaVersionNotTemporaryVersion, "snm bootstrap: schema version not for temporary objects",
      schemaVersionNotTemporary
    ),
    (
      schemaVersionNotRefreshVersion, "snm bootstrap: schema version not for a refresh",
      schemaVersionNotRefresh
    ),
    (
      schemaVersionNotIndexVersion, "snm bootstrap: schema version not for an index",
      schemaVersionNotIndex
    ),
    (
      schemaVersionNotStatisticsVersion,
      "snm bootstrap: schema version not for a sequence's settings, statistics or a label",
      schemaVersionNotStatistics
    ),
    (
      schemaVersionAsHostedVersion,
      "snm bootstrap: schema version on the DDL hosted projects reload for",
      schemaVersionAsHosted
    ),
    (
      hostedDDLWatchVersion,
      "snm bootstrap: reloads on hosted projects' DDL only, casts to json heard",
      hostedDDLWatch
    ),
  ]

  /// The search path of every session: the bootstrap sets it for the database, and the
  /// connection that applies migrations sets it for itself (it opened before).
  static let sessionSearchPath = "set search_path to \"$user\", public, extensions"

  /// The extensions a new Supabase project has before its first migration: `uuid-ossp`,
  /// `pgcrypto` and (where the system has it: Debian does not package it) `pgjwt`, in schema
  /// `extensions` (the `supabase_realtime` publication is `realtime`'s). Extensions a project
  /// made elsewhere before are left where they are.
  static let defaultsVersion = "snm_bootstrap_6_extensions"

  static let defaults = """
    create extension if not exists "uuid-ossp" with schema extensions;
    create extension if not exists pgcrypto with schema extensions;
    do $pgjwt$ begin
      if exists (select 1 from pg_available_extensions where name = 'pgjwt') then
        create extension if not exists pgjwt with schema extensions;
      end if;
    end $pgjwt$;
    grant usage on schema extensions to anon, authenticated, service_role;
    """

  static let script = """
    create schema if not exists extensions;
    create extension if not exists pgcrypto with schema extensions;
    alter database postgres set search_path = "$user", public, extensions;

    do $roles$ begin
      if not exists (select 1 from pg_roles where rolname = 'anon') then
        create role anon nologin noinherit;
      end if;
      if not exists (select 1 from pg_roles where rolname = 'authenticated') then
        create role authenticated nologin noinherit;
      end if;
      if not exists (select 1 from pg_roles where rolname = 'service_role') then
        create role service_role nologin noinherit bypassrls;
      end if;
      if not exists (select 1 from pg_roles where rolname = 'authenticator') then
        create role authenticator login noinherit;
      end if;
    end $roles$;
    grant anon, authenticated, service_role to authenticator;
    grant usage on schema public, extensions to anon, authenticated, service_role;
    alter default privileges in schema public grant all on tables to anon, authenticated, service_role;
    alter default privileges in schema public grant all on functions to anon, authenticated, service_role;
    alter default privileges in schema public grant all on sequences to anon, authenticated, service_role;

    create schema if not exists auth;
    grant usage on schema auth to anon, authenticated, service_role;

    create table if not exists auth.users (
      instance_id uuid,
      id uuid primary key default gen_random_uuid(),
      aud text not null default 'authenticated',
      role text not null default 'authenticated',
      email text,
      encrypted_password text,
      email_confirmed_at timestamptz,
      phone text,
      phone_confirmed_at timestamptz,
      last_sign_in_at timestamptz,
      raw_app_meta_data jsonb not null default '{}',
      raw_user_meta_data jsonb not null default '{}',
      is_anonymous boolean not null default false,
      banned_until timestamptz,
      deleted_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create unique index if not exists users_email_key on auth.users (lower(email))
      where email is not null and email <> '';

    create table if not exists auth.sessions (
      id uuid primary key default gen_random_uuid(),
      user_id uuid not null references auth.users (id) on delete cascade,
      aal text not null default 'aal1',
      amr_method text not null,
      amr_timestamp bigint not null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      refreshed_at timestamptz,
      not_after timestamptz
    );
    create index if not exists sessions_user_id_idx on auth.sessions (user_id);

    create table if not exists auth.refresh_tokens (
      id bigserial primary key,
      token text not null unique,
      user_id uuid not null references auth.users (id) on delete cascade,
      session_id uuid not null references auth.sessions (id) on delete cascade,
      parent text,
      revoked boolean not null default false,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index if not exists refresh_tokens_session_id_idx on auth.refresh_tokens (session_id);
    create index if not exists refresh_tokens_parent_idx on auth.refresh_tokens (parent);

    create or replace function auth.jwt() returns jsonb language sql stable as $fn$
      select coalesce(
        nullif(current_setting('request.jwt.claims', true), ''),
        '{}'
      )::jsonb
    $fn$;

    create or replace function auth.uid() returns uuid language sql stable as $fn$
      select nullif(
        coalesce(
          nullif(current_setting('request.jwt.claim.sub', true), ''),
          nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'sub'
        ), ''
      )::uuid
    $fn$;

    create or replace function auth.role() returns text language sql stable as $fn$
      select coalesce(
        nullif(current_setting('request.jwt.claim.role', true), ''),
        nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'role'
      )
    $fn$;

    create or replace function auth.email() returns text language sql stable as $fn$
      select nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'email'
    $fn$;

    grant execute on function auth.jwt(), auth.uid(), auth.role(), auth.email()
      to anon, authenticated, service_role;
    """

  /// Supabase's statement timeouts for the API roles: anon 3 s, authenticated 8 s, and 8 s for
  /// `authenticator`'s own sessions (so service_role, which sets none, gets 8 s). The gateway
  /// applies each role's settings to its requests, as PostgREST does; a project changes them
  /// with `alter role authenticated set statement_timeout = '20s'` (then
  /// `notify pgrst, 'reload config'`). A role that has a timeout already keeps it.
  static let roleTimeoutsVersion = "snm_bootstrap_2_role_timeouts"

  static let roleTimeouts = """
    do $timeouts$
    declare
      wanted constant text[][] := array[
        ['anon', '3s'], ['authenticated', '8s'], ['authenticator', '8s']];
      pair text[];
    begin
      foreach pair slice 1 in array wanted loop
        if not exists (
          select 1 from pg_db_role_setting s join pg_roles r on r.oid = s.setrole,
            unnest(s.setconfig) as c(item)
          where r.rolname = pair[1] and c.item like 'statement\\_timeout=%'
        ) then
          execute format('alter role %I set statement_timeout = %L', pair[1], pair[2]);
        end if;
      end loop;
    end $timeouts$;
    """

  /// The event triggers Supabase installs (`pgrst_ddl_watch`, `pgrst_drop_watch`): any DDL that
  /// can change what the API serves (tables, views, functions, types, schemas, comments) sends
  /// `NOTIFY pgrst, 'reload schema'` when it commits, so the gateway reloads its schema cache
  /// then and never because a request named something it does not know. Objects in `pg_temp`
  /// are left out, as Supabase's triggers leave them. The command tags and dropped kinds are
  /// hosted's (``reloadCommandTags``, ``reloadDroppedTypes``); until step 14 they named domains
  /// too, which a project made before gets at that step.
  static let ddlWatchVersion = "snm_bootstrap_3_ddl_watch"

  static let ddlWatch = """
    create or replace function extensions.pgrst_ddl_watch() returns event_trigger
    language plpgsql as $watch$
    declare
      cmd record;
    begin
      for cmd in select * from pg_event_trigger_ddl_commands() loop
        if cmd.command_tag in (\(quoted(reloadCommandTags)))
          and cmd.schema_name is distinct from 'pg_temp'
        then
          notify pgrst, 'reload schema';
        end if;
      end loop;
    end $watch$;

    create or replace function extensions.pgrst_drop_watch() returns event_trigger
    language plpgsql as $watch$
    declare
      obj record;
    begin
      for obj in select * from pg_event_trigger_dropped_objects() loop
        if obj.object_type in (\(quoted(reloadDroppedTypes)))
          and obj.is_temporary is false
        then
          notify pgrst, 'reload schema';
        end if;
      end loop;
    end $watch$;

    drop event trigger if exists pgrst_ddl_watch;
    create event trigger pgrst_ddl_watch on ddl_command_end
      execute procedure extensions.pgrst_ddl_watch();
    drop event trigger if exists pgrst_drop_watch;
    create event trigger pgrst_drop_watch on sql_drop
      execute procedure extensions.pgrst_drop_watch();
    """

  /// `'A', 'B'`: SQL string literals of `names` (none holds a quote).
  static func quoted(_ names: [String]) -> String {
    names.map { "'\($0)'" }.joined(separator: ", ")
  }

  /// The schema version the REST gateway's reads under policies of claims code check
  /// (`ClaimsPolicies` in SNMLocalREST): one row, moved on by the event trigger
  /// `snm_schema_version` at the end of every DDL command, in its transaction, so that it
  /// changes exactly when what the DDL did becomes visible. Enabled `ALWAYS`: it fires under
  /// `session_replication_role = replica` too, where `pgrst_ddl_watch` does not. Any role may
  /// read the version (a read's guard runs as the request's role; the schema cache reads it as
  /// `authenticator`, which so gets `extensions`' usage) and call
  /// `snm_schema_changed()`, the guard's error; only the trigger's function (security definer)
  /// moves it. Every DDL command leaves a dead version of the row, which every guarded read
  /// would step over until the page is pruned: at the default fillfactor a page is pruned only
  /// when 90% full (about 200 dead rows: the guard then cost Postgres 58k instructions a read,
  /// callgrind), at 10% after about 20.
  static let schemaVersionVersion = "snm_bootstrap_7_schema_version"

  static let schemaVersion = """
    create table if not exists extensions.snm_schema_version (version bigint not null)
      with (fillfactor = 10);
    insert into extensions.snm_schema_version (version)
      select 1 where not exists (select from extensions.snm_schema_version);
    revoke all on extensions.snm_schema_version from public;
    grant select on extensions.snm_schema_version to public;
    grant usage on schema extensions to authenticator;

    create or replace function extensions.snm_schema_version_bump() returns event_trigger
    language plpgsql security definer set search_path = '' as $bump$
    begin
      update extensions.snm_schema_version set version = version + 1;
    end $bump$;
    revoke all on function extensions.snm_schema_version_bump() from public;

    create or replace function extensions.snm_schema_changed() returns boolean
    language plpgsql set search_path = '' as $changed$
    begin
      raise exception 'the schema changed after the REST gateway read it'
        using errcode = 'SNMSV';
    end $changed$;

    drop event trigger if exists snm_schema_version;
    create event trigger snm_schema_version on ddl_command_end
      execute procedure extensions.snm_schema_version_bump();
    alter event trigger snm_schema_version enable always;
    """

  /// Step 7's event trigger moved the version in the DDL's transaction, and held the row's lock
  /// until that transaction ended: two open transactions that each ran DDL took turns however
  /// unrelated their tables, and a pair that Postgres runs to the end deadlocked (A's DDL on t1,
  /// B's on t2, A's on t2). Now the trigger's function only notes its transaction in
  /// `snm_schema_pending` (once: the key is the transaction's id), and the constraint trigger on
  /// that table, deferred to the commit, moves the version and takes the note away: the row is
  /// locked only from the commit's deferred triggers to its end, when the transaction takes no
  /// more DDL locks, and the version still changes exactly when the DDL becomes visible (the
  /// update is the transaction's). A DDL command rolled back (the transaction or its savepoint)
  /// takes its note and the deferred event with it. `SET CONSTRAINTS ALL IMMEDIATE` moves the
  /// version at once (and again for each later DDL command): others still see it change only at
  /// the commit, with the DDL, but the row stays locked until then, as under step 7. The
  /// constraint trigger is enabled `ALWAYS` too, for DDL under `session_replication_role =
  /// replica`.
  static let schemaVersionAtCommitVersion = "snm_bootstrap_8_schema_version_at_commit"

  static let schemaVersionAtCommit = """
    create table if not exists extensions.snm_schema_pending (xid xid8 primary key);
    revoke all on extensions.snm_schema_pending from public;

    create or replace function extensions.snm_schema_version_commit() returns trigger
    language plpgsql security definer set search_path = '' as $commit$
    begin
      delete from extensions.snm_schema_pending where xid = new.xid;
      update extensions.snm_schema_version set version = version + 1;
      return null;
    end $commit$;
    revoke all on function extensions.snm_schema_version_commit() from public;

    drop trigger if exists snm_schema_version_commit on extensions.snm_schema_pending;
    create constraint trigger snm_schema_version_commit
      after insert on extensions.snm_schema_pending
      deferrable initially deferred
      for each row execute procedure extensions.snm_schema_version_commit();
    alter table extensions.snm_schema_pending enable always trigger snm_schema_version_commit;

    -- Last: the trigger above is in place before this command's own ddl_command_end notes it.
    create or replace function extensions.snm_schema_version_bump() returns event_trigger
    language plpgsql security definer set search_path = '' as $bump$
    begin
      insert into extensions.snm_schema_pending (xid) values (pg_catalog.pg_current_xact_id())
        on conflict do nothing;
    end $bump$;
    """

  /// Steps 7 and 8 moved the version for every DDL command, a session's temporary objects too
  /// (`create temp table`, by a client or a project's function), which the gateway never reads
  /// and for which `pgrst_ddl_watch` asks no reload: the next claims read then failed its guard
  /// and the gateway sent the whole prelude until the next reload. Now a command whose objects
  /// are all in `pg_temp` is not noted, as `pgrst_ddl_watch` decides (a command reported with
  /// no schema, a `GRANT` or a policy, is noted). A `DROP` is reported at `sql_drop`, not to
  /// `pg_event_trigger_ddl_commands()`: the trigger `snm_schema_version_drop` notes it unless
  /// every object it dropped is temporary, but for one a dropped object brought with it that has
  /// no schema (a temporary view's rule); at `ddl_command_end` a `DROP` (but `DROP OWNED`, which
  /// also revokes) is left to it. A command that reports nothing else is noted, as before.
  static let schemaVersionNotTemporaryVersion = "snm_bootstrap_9_schema_version_not_temporary"

  static let schemaVersionNotTemporary =
    schemaVersionBump + """

      drop event trigger if exists snm_schema_version_drop;
      create event trigger snm_schema_version_drop on sql_drop
        execute procedure extensions.snm_schema_version_bump();
      alter event trigger snm_schema_version_drop enable always;
      """

  /// `REFRESH MATERIALIZED VIEW` replaces a view's rows, not its schema, and `pgrst_ddl_watch`
  /// asks no reload for it; steps 7 to 9 moved the version for it, so a project that refreshes a
  /// view on a schedule (pg_cron's usual job) failed the next claims read's guard after each
  /// refresh and, the cache marked stale, lost the claims' prelude until the next reload. Now it
  /// is not noted (making, altering or dropping the view still is), nor are the commands a
  /// `CONCURRENTLY` refresh runs inside itself (it makes, alters and drops temporary tables;
  /// Postgres reports none of a refresh's inner commands to `pg_event_trigger_ddl_commands()`,
  /// so a `CREATE TABLE` or `ALTER TABLE` reported with no command is one of them, or one that
  /// did nothing, `if not exists` of a table that was there). The function is step 9's
  /// (``schemaVersionBump``, which a new project gets from step 9 already).
  static let schemaVersionNotRefreshVersion = "snm_bootstrap_10_schema_version_not_refresh"

  static let schemaVersionNotRefresh = schemaVersionBump

  /// An index is nothing the gateway's schema cache reads (nor PostgREST's: `pgrst_ddl_watch`
  /// asks no reload for `CREATE INDEX`), yet steps 7 to 10 moved the version for one, so a
  /// project that added, renamed or dropped an index while the gateway ran paid the whole prelude
  /// for every claims read until the next reload. Now `CREATE INDEX`, `ALTER INDEX` and a drop
  /// that removes only indexes are not noted (a constraint, its index with it, is: `DROP INDEX`
  /// refuses a constraint's index). The function is step 9's (``schemaVersionBump``).
  static let schemaVersionNotIndexVersion = "snm_bootstrap_11_schema_version_not_index"

  static let schemaVersionNotIndex = schemaVersionBump

  /// `ALTER SEQUENCE`, `CREATE STATISTICS`, `ALTER STATISTICS` and `SECURITY LABEL` change
  /// nothing a policy's claims code reads, and hosted Supabase's `pgrst_ddl_watch` asks no reload
  /// for them (nor `pgrst_drop_watch` for a dropped statistics object), yet steps 7 to 11 moved
  /// the version for each, so a project that restarted a sequence (a test suite's reset) or
  /// added extended statistics while the gateway ran paid the whole prelude for every claims read
  /// until the next reload. Now they are not noted, nor a drop that removes only statistics
  /// objects (with indexes). A sequence renamed or moved is a column default's text the schema
  /// cache holds stale until the next reload, as hosted PostgREST's is; no guarded read reads it.
  /// The function is step 9's (``schemaVersionBump``).
  static let schemaVersionNotStatisticsVersion = "snm_bootstrap_12_schema_version_not_statistics"

  static let schemaVersionNotStatistics = schemaVersionBump

  /// Steps 7 to 12 moved the schema version for every DDL command but those they named (a
  /// refresh, an index, a sequence's settings, statistics, a label), so `CREATE SEQUENCE`, `DROP
  /// SEQUENCE`, `GRANT` and `REVOKE` moved it too, which hosted Supabase's `pgrst_ddl_watch` and
  /// `pgrst_drop_watch` ask no reload for: the next claims read failed its guard and the gateway
  /// sent the whole prelude until the next reload (a migration granting a sequence's use to
  /// `authenticated`, a test suite making its own sequences). Now the version moves on the
  /// events the reload triggers name and on no others, with what a claims read's guard stands
  /// for that they leave out: a policy made, altered or dropped, an operator or operator class or
  /// family made or altered (`reads_may_run_database_code`), `ALTER ROUTINE` (a function's
  /// volatility) and an extension made or altered (what it brings). A privilege, a comment's
  /// text or a sequence is nothing a guarded read relies on: Postgres checks privileges as the
  /// read runs. The function is step 9's (``schemaVersionBump``).
  static let schemaVersionAsHostedVersion = "snm_bootstrap_13_schema_version_as_hosted"

  static let schemaVersionAsHosted = schemaVersionBump

  /// The command tags after which hosted Supabase's `pgrst_ddl_watch` asks for a reload (its
  /// list, as a hosted project's `pg_dump` shows it: no `CREATE DOMAIN` or `ALTER DOMAIN`).
  static let reloadCommandTags = [
    "CREATE SCHEMA", "ALTER SCHEMA", "CREATE TABLE", "CREATE TABLE AS", "SELECT INTO",
    "ALTER TABLE", "CREATE FOREIGN TABLE", "ALTER FOREIGN TABLE", "CREATE VIEW", "ALTER VIEW",
    "CREATE MATERIALIZED VIEW", "ALTER MATERIALIZED VIEW", "CREATE FUNCTION", "ALTER FUNCTION",
    "CREATE TRIGGER", "CREATE TYPE", "ALTER TYPE", "CREATE RULE", "COMMENT",
  ]

  /// The kinds of dropped object after which hosted Supabase's `pgrst_drop_watch` asks for a
  /// reload. A dropped domain is reported as a `type`: `DROP DOMAIN` reloads, as it does there.
  static let reloadDroppedTypes = [
    "schema", "table", "foreign table", "view", "materialized view", "function", "trigger",
    "type", "rule",
  ]

  /// The command tags after which the schema version moves: `pgrst_ddl_watch`'s
  /// (``reloadCommandTags``) and those a claims read's guard needs besides.
  static let versionCommandTags = quoted(
    reloadCommandTags + [
      "CREATE POLICY", "ALTER POLICY", "CREATE OPERATOR", "ALTER OPERATOR", "CREATE OPERATOR CLASS",
      "ALTER OPERATOR CLASS", "CREATE OPERATOR FAMILY", "ALTER OPERATOR FAMILY", "ALTER ROUTINE",
      "CREATE EXTENSION", "ALTER EXTENSION",
    ])

  /// The kinds of dropped object after which the schema version moves: `pgrst_drop_watch`'s and
  /// a policy.
  static let versionDroppedTypes = quoted(reloadDroppedTypes + ["policy"])

  /// Steps 3 and 9 to 13 asked for a reload, and moved the schema version, on `CREATE DOMAIN`
  /// and `ALTER DOMAIN`, which hosted Supabase's `pgrst_ddl_watch` asks no reload for: a project
  /// that made or altered a domain saw its other pending changes (DDL run under `replica`) at
  /// once where a hosted one does not, and the next claims read failed its guard. A domain is
  /// nothing a claims read relies on (a policy of claims code holds no domain coercion,
  /// ``ClaimsPolicies``; a domain's checks run on writes). Now both watches are hosted's lists
  /// (``reloadCommandTags``, ``reloadDroppedTypes``) and the version follows them.
  ///
  /// `CREATE CAST` asks for no reload, here or there, yet a cast to `json` by a function changes
  /// at once what `json_agg` makes of its type's values (Postgres looks the cast up as it runs,
  /// and calls the function without checking `EXECUTE`), and so hosted PostgREST's answers; the
  /// gateway writes such values itself from an encoder it learnt before the cast
  /// (`ColumnReadCache`), which wrote the type's text until the next reload. The trigger
  /// `snm_casts_watch` (enabled `ALWAYS`, as Postgres looks casts up under `replica` too) sends
  /// `NOTIFY snm_casts` for every cast made: the gateway forgets what it learnt of how to write
  /// rows, and keeps its schema cache. A cast from or to a domain is ignored by
  /// Postgres (PostgREST's representations, read at a reload, as hosted) and `GRANT EXECUTE` on
  /// a cast's function changes nothing `json_agg` does: neither needs anything.
  static let hostedDDLWatchVersion = "snm_bootstrap_14_hosted_ddl_watch"

  static let hostedDDLWatch =
    schemaVersionBump + "\n\n" + ddlWatch + """

      create or replace function extensions.snm_casts_watch() returns event_trigger
      language plpgsql set search_path = '' as $casts$
      begin
        notify snm_casts;
      end $casts$;
      revoke all on function extensions.snm_casts_watch() from public;
      drop event trigger if exists snm_casts_watch;
      create event trigger snm_casts_watch on ddl_command_end when tag in ('CREATE CAST')
        execute procedure extensions.snm_casts_watch();
      alter event trigger snm_casts_watch enable always;
      """

  /// The event triggers' function since steps 9 to 13: notes the DDL command's transaction in
  /// `snm_schema_pending` when it made or altered, outside `pg_temp`, something of
  /// ``versionCommandTags`` (a refresh's inner commands and an `if not exists` that did nothing
  /// report none), or dropped something of ``versionDroppedTypes`` that is not temporary (but for
  /// one a dropped object brought with it that has no schema: a temporary view's rule).
  static let schemaVersionBump = """
    create or replace function extensions.snm_schema_version_bump() returns event_trigger
    language plpgsql security definer set search_path = '' as $bump$
    begin
      if tg_event = 'sql_drop' then
        if not exists (
          select from pg_catalog.pg_event_trigger_dropped_objects() o
          where not o.is_temporary and (o.original or o.schema_name is not null)
            and o.object_type in (\(versionDroppedTypes)))
        then
          return;
        end if;
      elsif not exists (
        select from pg_catalog.pg_event_trigger_ddl_commands() c
        where c.schema_name is distinct from 'pg_temp'
          and c.command_tag in (\(versionCommandTags)))
      then
        return;
      end if;
      insert into extensions.snm_schema_pending (xid) values (pg_catalog.pg_current_xact_id())
        on conflict do nothing;
    end $bump$;
    """

  /// The table that records applied migrations, as the Supabase CLI names it.
  static let realtimeVersion = "snm_bootstrap_4_realtime"

  /// What Realtime needs, as the Supabase CLI's database has it: the `supabase_realtime`
  /// publication (empty: a project adds its tables), and `realtime.messages` with RLS on, whose
  /// policies decide private channels (probed with `realtime.topic()` set). Unlike Realtime's the
  /// table is not partitioned by day: nothing here needs today's partition to exist.
  static let realtime = """
    do $publication$ begin
      if not exists (select 1 from pg_publication where pubname = 'supabase_realtime') then
        create publication supabase_realtime;
      end if;
    end $publication$;
    create schema if not exists realtime;
    grant usage on schema realtime to anon, authenticated, service_role;
    create table if not exists realtime.messages (
      topic text not null,
      extension text not null,
      payload jsonb,
      event text,
      private boolean default false,
      updated_at timestamp without time zone not null default now(),
      inserted_at timestamp without time zone not null default now(),
      id uuid not null default gen_random_uuid() primary key
    );
    alter table realtime.messages enable row level security;
    grant select, insert, update, delete on realtime.messages to anon, authenticated, service_role;
    create or replace function realtime.topic() returns text language sql stable as
      $topic$ select nullif(current_setting('realtime.topic', true), '')::text $topic$;
    grant execute on function realtime.topic() to anon, authenticated, service_role;
    """

  static let realtimeSendVersion = "snm_bootstrap_5_realtime_send"

  /// Broadcast from the database, as Realtime's functions do: `realtime.send` inserts a message
  /// (an `id` added to the payload when it has none; a failure is a warning, never the caller's
  /// error), `realtime.broadcast_changes` sends a row trigger's change through it. The gateway
  /// delivers each committed insert of a `broadcast` message to the topic's channels.
  static let realtimeSend = """
    create or replace function realtime.send(
      payload jsonb, event text, topic text, private boolean default true
    ) returns void language plpgsql as $send$
    begin
      begin
        perform set_config('realtime.topic', topic, true);
        insert into realtime.messages (payload, event, topic, private, extension)
        values (
          case when payload ? 'id' then payload
            else payload || jsonb_build_object('id', gen_random_uuid()) end,
          event, topic, private, 'broadcast');
      exception when others then
        raise warning 'WarnSendingBroadcastMessage: %', sqlerrm;
      end;
    end;
    $send$;
    create or replace function realtime.broadcast_changes(
      topic_name text, event_name text, operation text, table_name text, table_schema text,
      new record, old record, level text default 'ROW'
    ) returns void language plpgsql as $changes$
    declare
      row_data jsonb := null;
      old_data jsonb := null;
    begin
      if level = 'ROW' then
        if new is not null then row_data := to_jsonb(new); end if;
        if old is not null then old_data := to_jsonb(old); end if;
      end if;
      perform realtime.send(
        jsonb_build_object('old_record', old_data, 'record', row_data, 'operation', operation,
          'table', table_name, 'schema', table_schema),
        event_name, topic_name);
    end;
    $changes$;
    grant execute on function realtime.send(jsonb, text, text, boolean),
      realtime.broadcast_changes(text, text, text, text, text, record, record, text)
      to anon, authenticated, service_role;
    """

  static let migrationsTable = """
    create schema if not exists supabase_migrations;
    create table if not exists supabase_migrations.schema_migrations (
      version text primary key,
      name text,
      applied_at timestamptz not null default now()
    );
    """
}
