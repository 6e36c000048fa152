"""The language's side of issue 17's media items: `put`, `plan` and `set timezone`, as `snm explain`
shows them (offline) and as they run against a local project holding the media fidelity fixtures."""
import json
import pathlib

import pytest

from conftest import run_snm, start_project

MIGRATIONS = pathlib.Path(__file__).resolve().parent / "fidelity" / "media" / "migrations"
OFFLINE = {"SUPABASE_URL": "", "SUPABASE_ANON_KEY": "secret-anon-key-value"}


def explain(statement, *flags):
    result = run_snm("explain", "--json", *flags, statement, env=OFFLINE)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_put_sends_one_row_by_its_key():
    got = explain("""from tiobe_pls put {"name": "Go", "rank": 19} where name eq 'Go' returning *""")
    assert got["method"] == "PUT"
    assert got["query"] == [["name", "eq.Go"], ["select", "*"]]
    assert got["headers"]["Prefer"] == "return=representation"
    assert got["body"] == {"name": "Go", "rank": 19}


def test_put_needs_its_key_and_a_whole_object():
    result = run_snm("explain", """from tiobe_pls put {"name": "Go"}""", env=OFFLINE)
    assert result.returncode == 2
    assert "where" in result.stderr
    result = run_snm("explain", """from tiobe_pls put [{"name": "Go"}] where name eq 'Go'""", env=OFFLINE)
    assert result.returncode == 2


def test_plan_asks_for_the_execution_plan():
    got = explain("from projects select * where id eq 1 plan analyze verbose")
    assert got["method"] == "GET"
    assert got["headers"]["Accept"] == (
        'application/vnd.pgrst.plan+text; for="application/json"; options=analyze|verbose')
    single = explain("from projects select * where id eq 1 single plan")
    assert single["headers"]["Accept"] == (
        'application/vnd.pgrst.plan+text; for="application/vnd.pgrst.object+json"')
    rpc = explain("rpc get get_projects plan buffers")
    assert rpc["headers"]["Accept"] == (
        'application/vnd.pgrst.plan+text; for="application/json"; options=buffers')


@pytest.fixture(scope="module")
def media_project(snm_bin, workdir):
    project = start_project("media-language", "--migrations", str(MIGRATIONS))
    yield project
    project.stop()


def run(project, statements):
    return run_snm("--url", project.url, "--key", project.service_role_key, "--format", "json",
                   "-c", statements)


def test_put_inserts_then_replaces(media_project):
    first = run(media_project,
                """from tiobe_pls put {"name": "Zig", "rank": 40} where name eq 'Zig' returning *""")
    assert first.returncode == 0, first.stderr
    assert json.loads(first.stdout) == [{"name": "Zig", "rank": 40}]
    second = run(media_project,
                 """from tiobe_pls put {"name": "Zig", "rank": 41} where name eq 'Zig'
expect status 204""")
    assert second.returncode == 0, second.stderr
    assert media_project.sql("SELECT rank FROM tiobe_pls WHERE name = 'Zig'") == "41"
    wrong = run(media_project, """from tiobe_pls put {"name": "Odin", "rank": 1} where name eq 'Zig'""")
    assert wrong.returncode == 1
    assert "PGRST115" in wrong.stderr


def test_plan_prints_the_servers_plan(media_project):
    result = run(media_project, "from projects select * where id eq 1 plan")
    assert result.returncode == 0, result.stderr
    assert "Aggregate" in result.stdout and "projects" in result.stdout


def test_set_timezone_adds_the_preference(media_project):
    result = run(media_project, "set timezone 'Asia/Seoul'; explain json from timestamps select *")
    assert result.returncode == 0, result.stderr
    got = json.loads(result.stdout.strip().splitlines()[-1])
    assert got["headers"]["Prefer"] == "timezone=Asia/Seoul"


def test_set_timezone_changes_timestamps(media_project):
    result = run(media_project, "set timezone 'America/Los_Angeles'\nfrom timestamps select t")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == [{"t": "2023-10-18T05:37:59.611-07:00"}]
    plain = run(media_project, "from timestamps select t")
    off = run(media_project, "set timezone 'Asia/Seoul'\nset timezone off\nfrom timestamps select t")
    assert off.returncode == 0, off.stderr
    assert json.loads(off.stdout) == json.loads(plain.stdout)
