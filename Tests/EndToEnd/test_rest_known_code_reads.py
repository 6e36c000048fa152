"""A read answered from its columns leaves out the settings read after it (`response.headers`,
`response.status`, `DateStyle`) only when it can run no code written in the database and its
connection never ran any (KnownCodeReads.swift). Each test here makes one of those
conditions false and asks for a header only that code sets: a policy's function (a role the
policy applies to), an operator's SQL function (its filter), a setting a function made for the
session on the connection (PostgREST reads it on every later request of that connection), and a
role's own `DateStyle`. Each fails when the gateway skips the settings read in its case.
"""
import contextlib
import pathlib
import subprocess
import uuid

import httpx
import pytest

from hardening import jwt_secret, mint, user_claims, wait_for_answer


@contextlib.contextmanager
def service_client(project, table):
    """A client as service_role, once the gateway answers a read of the new `table`."""
    headers = project.headers(project.service_role_key)
    with httpx.Client(base_url=project.rest_url, headers=headers, timeout=60) as client:
        wait_for_answer(project, f"{table}?select=id", lambda answer: answer.status_code == 200)
        yield client


def read(client, path, rows, headers=None):
    """GET `path`, require a 200 whose JSON is `rows`; the answer, for its headers."""
    answer = client.get(path, headers=headers)
    assert answer.status_code == 200, answer.text
    assert answer.json() == rows
    return answer


def test_code_a_read_may_run_still_sets_the_answers_headers(start_extra_project):
    project = start_extra_project("known-code-reads")
    name = f"kc_{uuid.uuid4().hex[:8]}"
    project.sql(f"""
        create table public.{name} (id int primary key, note text, born date);
        insert into public.{name} values (1, 'one', '2020-01-02'), (2, 'two', '2021-03-04');
        create function public.{name}_policy() returns boolean language sql as $$
          select set_config('response.headers', '[{{"X-Set-By": "policy"}}]', true) is not null
        $$;
        alter table public.{name} enable row level security;
        create policy "{name} for anon" on public.{name} for select to anon
          using (public.{name}_policy());
        grant select on public.{name} to anon, service_role;
        grant execute on function public.{name}_policy() to anon;
        create view public.{name}_pid as select pg_backend_pid() as pid;
        grant select on public.{name}_pid to service_role;
        create function public.{name}_session() returns int language sql as $$
          select pg_backend_pid()
            + 0 * length(set_config('response.headers', '[{{"X-Set-By": "session"}}]', false))
        $$;
        grant execute on function public.{name}_session() to service_role;""")
    with service_client(project, name) as client:
        # anon, a role the policy applies to, runs the policy's function: its header is there.
        for _ in range(3):
            answer = read(client, f"/{name}?select=id,note&id=eq.1", [{"id": 1, "note": "one"}],
                          headers=project.headers())
            assert answer.headers.get("x-set-by") == "policy"
        # service_role bypasses the policy: no function ran, no header.
        answer = read(client, f"/{name}?select=id,note&id=eq.1", [{"id": 1, "note": "one"}])
        assert "x-set-by" not in answer.headers
        # A setting a function made for the session stays on its connection; PostgREST reads it
        # on every later request there, so the plain read after it must read it too.
        setter = client.post(f"/rpc/{name}_session", json={})
        assert setter.status_code == 200, setter.text
        answer = read(client, f"/{name}?select=id,born&id=eq.2", [{"id": 2, "born": "2021-03-04"}])
        assert answer.headers.get("x-set-by") == "session"
        served = client.get(f"/{name}_pid?select=pid")
        # The function's connection served the read between (else this proves nothing).
        assert served.json()[0]["pid"] == setter.json(), (setter.json(), served.json())


def test_an_operator_written_in_sql_still_sets_the_answers_headers(start_extra_project):
    project = start_extra_project("known-code-operator")
    name = f"ko_{uuid.uuid4().hex[:8]}"
    # `label = $1` with a parameter of unknown type resolves to the domain's own `=`.
    project.sql(f"""
        create domain public.{name}_tag as text;
        create function public.{name}_eq(public.{name}_tag, public.{name}_tag) returns boolean
          language sql as $$
          select set_config('response.headers', '[{{"X-Set-By": "operator"}}]', true) is not null
            and $1::text = $2::text
        $$;
        create operator public.= (leftarg = public.{name}_tag, rightarg = public.{name}_tag,
          function = public.{name}_eq);
        create table public.{name} (id int primary key, label public.{name}_tag);
        insert into public.{name} values (1, 'a'), (2, 'b');
        grant select on public.{name} to service_role;""")
    with service_client(project, name) as client:
        for _ in range(3):
            answer = read(client, f"/{name}?select=id,label&label=eq.b", [{"id": 2, "label": "b"}])
            assert answer.headers.get("x-set-by") == "operator"


def test_a_roles_own_datestyle_still_reaches_the_dates(start_extra_project):
    project = start_extra_project("known-code-datestyle")
    name = f"kd_{uuid.uuid4().hex[:8]}"
    # One transaction: the reload the new table's DDL asks for reads the role's setting too.
    project.sql(f"""
        alter role service_role set datestyle = 'German, DMY';
        create table public.{name} (id int primary key, born date, seen timestamp);
        insert into public.{name} values (1, '2020-01-02', '2020-01-02 03:04:05');
        grant select on public.{name} to service_role;""")
    with service_client(project, name) as client:
        for _ in range(3):
            # The transaction's dates are German; JSON's stay ISO, as PostgREST's json_agg.
            read(client, f"/{name}?select=id,born,seen&id=eq.1",
                 [{"id": 1, "born": "2020-01-02", "seen": "2020-01-02T03:04:05"}])


def test_a_role_that_lost_bypassrls_reads_under_the_policy_with_its_claims(start_extra_project):
    # `ALTER ROLE ... NOBYPASSRLS` reloads no schema cache: the gateway still believes no policy
    # applies to service_role. The read of known code it then sends turns row security off, so
    # Postgres refuses it and the gateway sends it again with the claims, which the policy reads.
    # Without that, the policy ran without the claims and the read answered no row at all.
    # (A statement a connection prepared before the ALTER keeps its plan, which bypassed row
    # security: Postgres replans on a change of role or of row_security, not of the role's
    # attribute. So the reads after it are of shapes never sent before.)
    project = start_extra_project("known-code-bypass")
    name = f"kb_{uuid.uuid4().hex[:8]}"
    project.sql(f"""
        create table public.{name} (id int primary key, note text);
        insert into public.{name} values (1, 'one'), (2, 'two'), (3, 'three');
        alter table public.{name} enable row level security;
        create policy "{name} by claim" on public.{name} for select to service_role
          using (id < 3 and current_setting('request.jwt.claims', true)::jsonb ->> 'role'
                 = 'service_role');
        grant select on public.{name} to service_role;""")
    with service_client(project, name) as client:
        for _ in range(3):
            read(client, f"/{name}?select=id,note&order=id",
                 [{"id": 1, "note": "one"}, {"id": 2, "note": "two"}, {"id": 3, "note": "three"}])
        project.sql("alter role service_role nobypassrls")
        try:
            for _ in range(4):
                read(client, f"/{name}?select=note,id&order=id",
                     [{"id": 1, "note": "one"}, {"id": 2, "note": "two"}])
                read(client, f"/{name}?select=id&order=id.desc", [{"id": 2}, {"id": 1}])
                read(client, f"/{name}?select=note&id=eq.3", [])
        finally:
            project.sql("alter role service_role bypassrls")


# A read under row security answers what PostgREST's whole prelude answers, whatever its policies
# read: auth.uid(), auth.role(), auth.jwt() (the claims), request.headers, or a function of the
# project's replaced to read request.method. Each test compares the plain read (the shape a
# shortened prelude would serve) with the same read that casts a column (always the whole prelude)
# and with what the policy means under PostgREST's contract; then the schema cache is made stale on
# purpose (the DDL run with session_replication_role = replica, under which the event triggers that
# ask for a reload do not fire; a table made with it stays unknown): auth.uid() replaced, a policy
# added, a policy altered, each to read a setting only the whole prelude sets. A gateway that sends
# only the role, search_path and the claims when its schema cache says the policies read nothing
# more fails the first three unless the read itself checks that the schema is still the one the
# cache read (the schema version its guard compares, moved on by an event trigger that fires under
# replica too), and the last two if it counts a policy that calls current_setting or a function of
# the project's among such policies.

ALICE = "a11ce000-0000-4000-8000-000000000001"
BOB = "b0b00000-0000-4000-8000-000000000002"


def claims_table(project, prefix, policy):
    """A table of four rows (Alice's and Bob's, red and blue) with row security and `policy`
    (its USING) for anon and authenticated."""
    name = f"{prefix}_{uuid.uuid4().hex[:8]}"
    project.sql(f"""
        create table public.{name} (id int primary key, owner uuid, team text);
        insert into public.{name} values (1, '{ALICE}', 'red'), (2, '{ALICE}', 'blue'),
          (3, '{BOB}', 'red'), (4, '{BOB}', 'blue');
        alter table public.{name} enable row level security;
        create policy "{name} reads" on public.{name} for select to anon, authenticated
          using ({policy});
        grant select on public.{name} to anon, authenticated, service_role;""")
    wait_for_answer(project, f"{name}?select=id", lambda answer: answer.status_code == 200)
    return name


def user(project, user_id, **claims):
    return project.headers(token=mint(jwt_secret(project), user_claims(user_id, **claims)))


def ids(client, name, headers):
    """The ids a plain read answers, after checking that the same read with a cast (never a plain
    read: the whole prelude) answers the same rows."""
    plain = client.get(f"/{name}?select=id,team&order=id", headers=headers)
    whole = client.get(f"/{name}?select=id,team::text&order=id", headers=headers)
    assert plain.status_code == 200, plain.text
    assert whole.status_code == 200, whole.text
    assert plain.json() == whole.json()
    return [row["id"] for row in plain.json()]


def silently(project, name, sql):
    """Runs `sql` without the event triggers' reload; a table made with it stays unknown to the
    gateway, which shows that its schema cache is stale."""
    project.sql(f"set session_replication_role = replica; {sql}; "
                f"create table public.{name}_unseen (id int)")
    answer = httpx.get(f"{project.rest_url}/{name}_unseen", headers=project.headers())
    assert answer.status_code == 404, answer.text


def test_a_policy_by_auth_uid_and_a_uid_replaced_behind_the_cache(start_extra_project):
    project = start_extra_project("claims-uid")
    name = claims_table(project, "cu", "owner = auth.uid()")
    alice, bob = user(project, ALICE), user(project, BOB)
    with httpx.Client(base_url=project.rest_url, timeout=60) as client:
        for _ in range(3):
            assert ids(client, name, alice) == [1, 2]
            assert ids(client, name, bob) == [3, 4]
            assert ids(client, name, project.headers()) == []
        # auth.uid() now answers Bob for a GET (request.method), which only the whole prelude
        # sets: PostgREST would show Alice Bob's rows.
        silently(project, name, f"""create or replace function auth.uid() returns uuid
            language sql stable as $$
              select case when current_setting('request.method', true) = 'GET'
                then '{BOB}'::uuid end
            $$""")
        for _ in range(3):
            assert ids(client, name, alice) == [3, 4]


def test_a_policy_by_auth_role_and_a_policy_added_behind_the_cache(start_extra_project):
    project = start_extra_project("claims-role")
    name = claims_table(project, "cr", "auth.role() = 'authenticated' and team = 'red'")
    alice = user(project, ALICE)
    with httpx.Client(base_url=project.rest_url, timeout=60) as client:
        for _ in range(3):
            assert ids(client, name, alice) == [1, 3]
            assert ids(client, name, project.headers()) == []
        silently(project, name, f"""create policy "{name} by header" on public.{name}
            for select to anon, authenticated
            using (coalesce(nullif(current_setting('request.headers', true), ''), '{{}}')::json
                   ->> 'x-pass' = 'yes')""")
        for _ in range(3):
            assert ids(client, name, {**project.headers(), "X-Pass": "yes"}) == [1, 2, 3, 4]
            assert ids(client, name, project.headers()) == []
            assert ids(client, name, alice) == [1, 3]


def test_a_policy_by_auth_jwt_and_a_policy_altered_behind_the_cache(start_extra_project):
    project = start_extra_project("claims-jwt")
    name = claims_table(project, "cj", "auth.jwt() ->> 'team' = team")
    red, blue = user(project, ALICE, team="red"), user(project, BOB, team="blue")
    with httpx.Client(base_url=project.rest_url, timeout=60) as client:
        for _ in range(3):
            assert ids(client, name, red) == [1, 3]
            assert ids(client, name, blue) == [2, 4]
            assert ids(client, name, user(project, ALICE)) == []
        silently(project, name, f"""alter policy "{name} reads" on public.{name}
            using (auth.jwt() ->> 'team' = team or current_setting('request.path', true) <> '')""")
        for _ in range(3):
            assert ids(client, name, red) == [1, 2, 3, 4]


def test_a_policy_that_reads_the_request_headers_gets_them(start_extra_project):
    project = start_extra_project("claims-headers")
    name = claims_table(project, "ch",
                        "current_setting('request.headers', true)::json ->> 'x-team' = team")
    with httpx.Client(base_url=project.rest_url, timeout=60) as client:
        for _ in range(3):
            assert ids(client, name, {**project.headers(), "X-Team": "red"}) == [1, 3]
            assert ids(client, name, {**user(project, BOB), "X-Team": "blue"}) == [2, 4]
            assert ids(client, name, project.headers()) == []


def test_a_policys_own_function_replaced_to_read_the_method(start_extra_project):
    project = start_extra_project("claims-function")
    prefix = f"cf_{uuid.uuid4().hex[:8]}"
    project.sql(f"""create function public.{prefix}_allowed(t text) returns boolean
        language sql stable as $$ select auth.jwt() ->> 'team' = t $$;
        grant execute on function public.{prefix}_allowed(text) to anon, authenticated""")
    name = claims_table(project, prefix, f"public.{prefix}_allowed(team)")
    red = user(project, ALICE, team="red")
    with httpx.Client(base_url=project.rest_url, timeout=60) as client:
        for _ in range(3):
            assert ids(client, name, red) == [1, 3]
        # Replaced with the event triggers on, and read once the gateway has reloaded (a table
        # made in the same transaction is served): the schema is then the one its cache read,
        # so only the cache's own judgement of the function keeps the claims' prelude away.
        project.sql(f"""create or replace function public.{prefix}_allowed(t text)
            returns boolean language sql stable as $$
              select current_setting('request.method', true) = 'GET'
            $$;
            create table public.{prefix}_seen (id int);
            grant select on public.{prefix}_seen to service_role""")
        wait_for_answer(project, f"{prefix}_seen?select=id",
                        lambda answer: answer.status_code == 200)
        for _ in range(3):
            assert ids(client, name, red) == [1, 2, 3, 4]
            assert ids(client, name, project.headers()) == [1, 2, 3, 4]



def failed_guards(project, name):
    """How many reads of `name` the project's Postgres has failed for their schema version's
    guard (`snm_schema_changed()`): each is in its log, with the statement that raised it."""
    log = pathlib.Path(project.status["cluster_dir"]) / "postgres.log"
    lines = log.read_bytes().decode(errors="replace").splitlines()
    return sum(1 for line in lines
               if "STATEMENT:" in line and "snm_schema_changed" in line and name in line)


def test_a_stale_cache_fails_one_guard_until_the_next_reload(start_extra_project):
    # DDL under replica moves the schema version but asks for no reload: hosted PostgREST would
    # not see it either, so the gateway must not reload on its own. Every read under claims
    # policies then finds the version moved, fails its guard and goes again with the whole
    # prelude: twice the work. After one such failure the gateway sends the whole prelude from
    # the first try, until the next reload, and then the claims' prelude again (a second stale
    # schema fails one guard more). Postgres logs every error with its statement.
    project = start_extra_project("claims-stale")
    name = claims_table(project, "cs", "owner = auth.uid()")
    alice = user(project, ALICE)
    with httpx.Client(base_url=project.rest_url, timeout=60) as client:
        for _ in range(3):
            assert ids(client, name, alice) == [1, 2]
        assert failed_guards(project, name) == 0
        for stale in (1, 2):
            silently(project, f"{name}_{stale}",
                     f"comment on table public.{name} is 'stale {stale}'")
            for _ in range(4):
                assert ids(client, name, alice) == [1, 2]
            assert failed_guards(project, name) == stale
            # DDL the event triggers see: the gateway reloads, and reads the new version.
            project.sql(f"create table public.{name}_seen_{stale} (id int);"
                        f" grant select on public.{name}_seen_{stale} to service_role")
            wait_for_answer(project, f"{name}_seen_{stale}?select=id",
                            lambda answer: answer.status_code == 200)
            for _ in range(3):
                assert ids(client, name, alice) == [1, 2]
            assert failed_guards(project, name) == stale


def test_ddl_that_began_before_a_reload_and_commits_after_it_is_seen(start_extra_project):
    # The schema cache reloads while a transaction that ran DDL is still open, and that
    # transaction commits later, under replica (no reload of its own). A version handed out
    # before the commit (a sequence, the largest transaction id) would be older than the one the
    # cache read; the guard compares the schema log with the cache's snapshot, in which that
    # transaction was still in progress, so the read sees the change. The psql session is
    # stepped on its own answers.
    project = start_extra_project("claims-order")
    name = claims_table(project, "co", "auth.jwt() ->> 'team' = team")
    red = user(project, ALICE, team="red")
    psql = subprocess.Popen(
        ["psql", "-h", project.socket_dir, "-p", "5432", "-U", "postgres", "-d", "postgres",
         "-Atq", "-v", "ON_ERROR_STOP=1"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    def step(statements, mark):
        psql.stdin.write(f"{statements}\nselect '{mark}';\n")
        psql.stdin.flush()
        assert psql.stdout.readline() == f"{mark}\n", f"psql did not answer {mark}"

    try:
        with httpx.Client(base_url=project.rest_url, timeout=60) as client:
            for _ in range(3):
                assert ids(client, name, red) == [1, 3]
            step(f"""begin; set local session_replication_role = replica;
                alter policy "{name} reads" on public.{name} using
                  (auth.jwt() ->> 'team' = team or current_setting('request.path', true) <> '');""",
                 "altered")
            # Another transaction's DDL, which the event triggers see: the gateway reloads.
            project.sql(f"create table public.{name}_seen (id int);"
                        f" grant select on public.{name}_seen to service_role")
            wait_for_answer(project, f"{name}_seen?select=id",
                            lambda answer: answer.status_code == 200)
            # (No read of the table meanwhile: the open ALTER POLICY holds its lock.)
            step("commit;", "committed")
            for _ in range(3):
                assert ids(client, name, red) == [1, 2, 3, 4]
    finally:
        psql.kill()
        psql.wait(timeout=30)


def test_temporary_ddl_in_another_session_fails_no_guard(start_extra_project):
    # A session's temporary objects are no schema the gateway reads: pgrst_ddl_watch asks no
    # reload for them, and the schema version must not move for them either, or the next claims
    # read fails its guard and the gateway sends the whole prelude until the next reload (a
    # project whose functions make temporary tables would never get the claims' prelude back).
    # The drop of a temporary table (sql_drop, not ddl_command_end) and of a temporary view (its
    # rule is reported without a schema) are temporary too.
    project = start_extra_project("claims-temp")
    name = claims_table(project, "ct", "owner = auth.uid()")
    alice = user(project, ALICE)
    version = "select version from extensions.snm_schema_version"
    with httpx.Client(base_url=project.rest_url, timeout=60) as client:
        assert ids(client, name, alice) == [1, 2]
        before = project.sql(version)
        project.sql(f"create temp table {name}_t (id int primary key default 1,"
                    f" v text check (v <> '')); create index on {name}_t (v);"
                    f" comment on table {name}_t is 'temporary'; create temp view {name}_v as"
                    f" select 1 as one; create function pg_temp.{name}_f() returns int"
                    f" language sql as 'select 1'; drop view {name}_v; drop table {name}_t;"
                    f" drop function pg_temp.{name}_f()")
        project.sql(f"begin; create temp table {name}_c (id int) on commit drop; commit")
        for _ in range(3):
            assert ids(client, name, alice) == [1, 2]
        assert failed_guards(project, name) == 0
        assert project.sql(version) == before
        # A transaction (psql -c's one) with DDL outside pg_temp too moves it, as does a drop of
        # both kinds.
        project.sql(f"create temp table {name}_t2 (id int); create table public.{name}_p (id int)")
        assert int(project.sql(version)) == int(before) + 1
        project.sql(f"create temp table {name}_t3 (id int); drop table {name}_t3, public.{name}_p")
        assert int(project.sql(version)) == int(before) + 2


def test_a_refresh_or_an_index_fails_no_guard(start_extra_project):
    # REFRESH MATERIALIZED VIEW replaces a view's rows, not its schema, and an index is nothing
    # the schema cache reads: pgrst_ddl_watch asks no reload for either, so the schema version
    # must not move either, or the next claims read fails its guard and the gateway sends the
    # whole prelude until the next reload (a project that refreshes a view every minute, pg_cron's
    # usual job, would never get the claims' prelude back). Making, altering or dropping the view
    # still moves it.
    project = start_extra_project("claims-refresh")
    view = f"cr_mv_{uuid.uuid4().hex[:8]}"
    project.sql(f"create materialized view public.{view} as select generate_series(1, 3) as id;"
                f" create unique index on public.{view} (id)")
    # The table's reload (waited for) is after the view's DDL: the cache has its version.
    name = claims_table(project, "cr", "owner = auth.uid()")
    alice = user(project, ALICE)
    version = "select version from extensions.snm_schema_version"
    with httpx.Client(base_url=project.rest_url, timeout=60) as client:
        assert ids(client, name, alice) == [1, 2]
        before = project.sql(version)
        project.sql(f"refresh materialized view public.{view}")
        project.sql(f"refresh materialized view concurrently public.{view}")
        project.sql(f"begin; refresh materialized view public.{view} with no data; commit")
        project.sql(f"create index {name}_team on public.{name} (team);"
                    f" alter index {name}_team rename to {name}_team2")
        project.sql(f"create index concurrently {name}_owner on public.{name} (owner)")
        project.sql(f"drop index {name}_team2, {name}_owner")
        for _ in range(3):
            assert ids(client, name, alice) == [1, 2]
        assert failed_guards(project, name) == 0
        assert project.sql(version) == before
        project.sql(f"refresh materialized view public.{view};"
                    f" alter materialized view public.{view} rename to {view}2")
        assert int(project.sql(version)) == int(before) + 1
        project.sql(f"drop materialized view public.{view}2")
        assert int(project.sql(version)) == int(before) + 2


@pytest.fixture(scope="module")
def settings_project(start_extra_project):
    return start_extra_project("claims-settings")


# (what runs before the claims table is made and its reload waited for, the DDL measured): a
# sequence made, dropped, its settings or name, privileges, extended statistics. Hosted Supabase's
# pgrst_ddl_watch and pgrst_drop_watch ask no reload for any of them, and no policy's claims code
# reads them (Postgres checks privileges as a read runs).
SETTINGS_DDL = {
    "CREATE SEQUENCE": ("create table public.{p}_s (id int)",
                        "create sequence public.{p}_seq start 10"),
    "DROP SEQUENCE": ("create table public.{p}_s (id int); create sequence public.{p}_seq",
                      "drop sequence public.{p}_seq"),
    "GRANT on a sequence": ("create table public.{p}_s (id serial)",
                            "grant usage, select on sequence public.{p}_s_id_seq"
                            " to anon, authenticated"),
    "REVOKE on a sequence": ("create table public.{p}_s (id serial); grant usage on sequence"
                             " public.{p}_s_id_seq to anon",
                             "revoke usage on sequence public.{p}_s_id_seq from anon"),
    "GRANT on a table": ("create table public.{p}_s (id serial)",
                         "grant insert, update on public.{p}_s to authenticated"),
    "ALTER SEQUENCE": ("create table public.{p}_s (id serial)",
                       "alter sequence public.{p}_s_id_seq restart with 100 increment by 2"),
    "ALTER SEQUENCE, renamed": ("create table public.{p}_s (id serial)",
                                "alter sequence public.{p}_s_id_seq rename to {p}_s_seq2"),
    "CREATE STATISTICS": ("create table public.{p}_s (a int, b int)",
                          "create statistics public.{p}_st (dependencies) on a, b"
                          " from public.{p}_s"),
    "ALTER STATISTICS": ("create table public.{p}_s (a int, b int); create statistics"
                         " public.{p}_st on a, b from public.{p}_s",
                         "alter statistics public.{p}_st set statistics 50"),
    "DROP STATISTICS": ("create table public.{p}_s (a int, b int); create statistics"
                        " public.{p}_st on a, b from public.{p}_s",
                        "drop statistics public.{p}_st"),
    # Nor CREATE DOMAIN or ALTER DOMAIN (a dropped domain is a dropped type: it reloads), and no
    # policy of claims code holds a domain's coercion.
    "CREATE DOMAIN": ("create table public.{p}_s (id int)",
                      "create domain public.{p}_d as int check (value > 0)"),
    "ALTER DOMAIN": ("create table public.{p}_s (id int); create domain public.{p}_d as int",
                     "alter domain public.{p}_d add constraint {p}_positive check (value > 0)"),
}


@pytest.mark.parametrize("command", SETTINGS_DDL)
def test_a_sequences_settings_or_statistics_fail_no_guard(settings_project, command):
    # Steps 7 to 11 (12 for a sequence made or dropped and privileges) moved the schema version
    # for these: the next claims read failed its guard and the gateway sent the whole prelude
    # until the next reload (a test suite restarting its sequences between runs would never get
    # the claims' prelude back).
    project = settings_project
    prefix = f"cq_{uuid.uuid4().hex[:6]}"
    before_ddl, measured = (sql.format(p=prefix) for sql in SETTINGS_DDL[command])
    project.sql(before_ddl)
    # The table's reload (waited for) is after the DDL above: the cache has its version.
    name = claims_table(project, prefix, "owner = auth.uid()")
    alice = user(project, ALICE)
    version = "select version from extensions.snm_schema_version"
    with httpx.Client(base_url=project.rest_url, timeout=60) as client:
        assert ids(client, name, alice) == [1, 2]
        before = project.sql(version)
        project.sql(measured)
        assert project.sql(version) == before
        for _ in range(3):
            assert ids(client, name, alice) == [1, 2]
        assert failed_guards(project, name) == 0
        # Dropping the table (its sequence or statistics with it) moves it, as before.
        project.sql(f"drop table public.{prefix}_s")
        assert int(project.sql(version)) == int(before) + 1
