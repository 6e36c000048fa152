"""The REST gateway's schema cache reloads on schema changes, never because a request asked.

PostgREST answers a name it does not know from the cache it has (404 PGRST205, 400 PGRST200,
404 PGRST202) and reloads on `NOTIFY pgrst`, which Supabase's DDL event triggers
(`pgrst_ddl_watch`, `pgrst_drop_watch`) send for every schema change. So DDL followed at once by
a request finds the new object, while a stream of unknown names (anyone can send them) costs no
reload. Each test uses names of its own in the session project.
"""
import uuid

import httpx

from conftest import run_snm


def _get(project, path):
    return httpx.get(project.rest_url + path, headers=project.headers(project.service_role_key),
                     timeout=30)


def _name(prefix):
    return f"{prefix}_{uuid.uuid4().hex[:8]}"


def test_the_local_project_has_supabases_ddl_event_triggers(project):
    triggers = project.sql("select evtname || ':' || evtevent || ':' || evtenabled::text "
                           "from pg_event_trigger order by 1")
    # Supabase's two (enabled as usual: not under session_replication_role = replica), and snm's
    # schema version for the REST gateway's guarded reads (enabled always).
    assert triggers.splitlines() == ["pgrst_ddl_watch:ddl_command_end:O",
                                     "pgrst_drop_watch:sql_drop:O",
                                     "snm_schema_version:ddl_command_end:A"]


def test_ddl_then_a_request_at_once_finds_the_new_table_and_its_relationships(project):
    parent, child = _name("reload_parent"), _name("reload_child")
    assert _get(project, f"/{parent}").status_code == 404
    project.sql(
        f"create table public.{parent} (id int primary key, name text);"
        f"create table public.{child} (id int primary key, parent_id int references {parent});"
        f"insert into public.{parent} values (1, 'p'); insert into public.{child} values (7, 1);"
        f"grant select on public.{parent}, public.{child} to anon, service_role")
    # No wait: the request comes right after psql returned.
    answer = _get(project, f"/{child}?select=id,{parent}(name)")
    assert answer.status_code == 200, answer.text
    assert answer.json() == [{"id": 7, parent: {"name": "p"}}]
    project.sql(f"drop table public.{child}; drop table public.{parent}")
    assert _get(project, f"/{child}").status_code == 404


def test_ddl_then_snm_at_once_sees_a_new_function(project):
    function = _name("reload_fn")
    project.sql(f"create function public.{function}() returns int language sql as 'select 41 + 1'")
    result = run_snm("--url", project.url, "--key", project.anon_key, "--format", "json",
                     "-c", f"rpc {function} {{}}")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "42"
    project.sql(f"drop function public.{function}()")


def test_unknown_names_never_reload_the_cache(project):
    # A table made with the event triggers off (as a replica applies DDL): nothing notifies the
    # gateway, so only a reload caused by a request could make it appear.
    hidden = _name("reload_hidden")
    project.sql(
        f"begin; set local session_replication_role = replica;"
        f"create table public.{hidden} (id int primary key);"
        f"grant select on public.{hidden} to service_role; commit")
    for _ in range(5):
        answer = _get(project, f"/{hidden}")
        assert answer.status_code == 404
        assert answer.json()["code"] == "PGRST205"
        embed = _get(project, f"/dog_profile?select=id,{hidden}(id)")
        assert embed.status_code == 400 and embed.json()["code"] == "PGRST200"
        rpc = httpx.post(project.rest_url + f"/rpc/{hidden}", json={},
                         headers=project.headers(project.service_role_key), timeout=30)
        assert rpc.status_code == 404 and rpc.json()["code"] == "PGRST202"
    # NOTIFY pgrst reloads it, as PostgREST does.
    project.sql("notify pgrst, 'reload schema'")
    assert _get(project, f"/{hidden}").status_code == 200
    project.sql(f"drop table public.{hidden}")


def test_a_partition_made_later_is_not_listed(project):
    parent = _name("reload_parted")
    project.sql(
        f"create table public.{parent} (id int, at date not null) partition by range (at);"
        f"create table public.{parent}_2026 partition of public.{parent}"
        f" for values from ('2026-01-01') to ('2027-01-01');"
        f"grant select on public.{parent}, public.{parent}_2026 to service_role")
    assert _get(project, f"/{parent}").status_code == 200
    assert _get(project, f"/{parent}_2026").status_code == 404
    listed = _get(project, "/").json()["paths"]
    assert f"/{parent}" in listed and f"/{parent}_2026" not in listed
    project.sql(f"drop table public.{parent}")
