"""A read answered from its columns leaves out the settings read after it (`response.headers`,
`response.status`, `DateStyle`) only when it can run no code written in the database and its
connection never ran any (KnownCodeReads.swift). Each test here makes one of those
conditions false and asks for a header only that code sets: a policy's function (a role the
policy applies to), an operator's SQL function (its filter), a setting a function made for the
session on the connection (PostgREST reads it on every later request of that connection), and a
role's own `DateStyle`. Each fails when the gateway skips the settings read in its case.
"""
import contextlib
import uuid

import httpx

from hardening import wait_for_answer


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
