"""What results say, through the real binary (issue 16 items 2, 3, 4 and 7).

- At a real terminal (tmux's pty, narrow and wide windows) a table wraps its text and never cuts a
  value; one that cannot fit even so prints expanded (`set expanded auto`, the default).
- `describe` and `tables` show what the OpenAPI document says, and the local gateway serves that
  document as PostgREST does (every NOT NULL column `required`, defaults as `parseDefault` gives
  them, verbs by whether the relation can be written, not by the role's grants).
- `update` and `delete` say `UPDATE n` / `DELETE n` (PostgREST's `Content-Range: */n`), `expect
  rows` reads it, and the prompt warns when nothing changed.
- Empty results keep the header their query names; `maybe single` with no match is no row; two CSV
  results are two blocks.
"""
import json
import re
import urllib.request

import pytest

from conftest import SNM, run_snm
from test_shell_prompt import shell_env  # noqa: F401 (a fixture)
from tmux_shell import TmuxShell

UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
ALICE = "0c8e5f7a-6b9d-4f1e-9a3b-2d4c6e8f0a1b"
BOB = "1d9f6a8b-7cae-4a2f-8b4c-3e5d7f9a1b2c"
USERS = "from user_info select id, name, bio, data order by name"


def service_env(project, shell_env):
    """The shell's environment with the server key and no client key (unset, not empty: snm
    refuses an empty client key's variable beside a server key's)."""
    clientless = {name: value for name, value in shell_env.items()
                  if name not in ("SUPABASE_ANON_KEY", "SUPABASE_PUBLISHABLE_KEY")}
    return {**clientless, "SUPABASE_SECRET_KEY": project.service_role_key}


def output_of_last(screen):
    """What the last statement ending in `order by name` printed (the statement itself may wrap
    in a narrow window)."""
    return screen.rsplit("order by", 1)[-1].split("\n", 1)[1]


def table_lines(screen):
    return [line for line in output_of_last(screen).splitlines() if " | " in line or "-+-" in line]


def test_a_narrow_window_wraps_text_and_keeps_every_value_whole(project, shell_env):
    with TmuxShell([SNM], env=service_env(project, shell_env), width=100) as shell:
        shell.wait_for_prompt()
        screen = shell.run(USERS)
        lines = table_lines(screen)
        assert lines and all(len(line) <= 100 for line in lines), screen
        assert lines[0].split("|")[0].strip() == "id", "a table, not records:\n" + screen
        # Every user's id is whole on one line (copyable), nothing is cut, a long cell wraps.
        after = output_of_last(screen)
        assert {ALICE, BOB} <= set(UUID.findall(after)), screen
        assert "…" not in after
        assert len(lines) > 2 + 3, "the nested data should wrap onto more lines:\n" + screen


def test_too_narrow_even_wrapped_prints_records(project, shell_env):
    with TmuxShell([SNM], env=service_env(project, shell_env), width=60) as shell:
        shell.wait_for_prompt()
        screen = shell.run(USERS)
        after = output_of_last(screen)
        assert "-[ RECORD 1 ]" in after, screen
        assert f"id   | {ALICE}" in after or f"id   | {BOB}" in after, screen
        assert all(len(line) <= 60 for line in after.splitlines()), screen
        assert "…" not in after
        # With expanded off the table keeps its columns at their narrowest: wider than the window
        # (the terminal wraps the lines), every value still whole.
        shell.run("set expanded off")
        screen = shell.run(USERS)
        after = output_of_last(screen)
        assert "RECORD" not in after and "…" not in after
        assert "(3 rows)" in after


def test_a_wide_window_prints_each_row_on_one_line(project, shell_env):
    with TmuxShell([SNM], env=service_env(project, shell_env), width=250) as shell:
        shell.wait_for_prompt()
        screen = shell.run(USERS)
        lines = table_lines(screen)
        assert len(lines) == 2 + 3, screen
        assert "RECORD" not in screen


def test_narrow_output_under_an_interactive_bash(project, shell_env):
    env = {**service_env(project, shell_env), "PS1": "bash$ "}
    with TmuxShell(["bash", "--norc", "--noprofile", "-i"], env=env, width=60) as bash:
        bash.wait_for_text("bash$")
        bash.type(SNM)
        bash.press("Enter")
        bash.wait_for_prompt()
        screen = bash.run("from dog_profile select id, owner, weight_kg, traits order by name")
        after = output_of_last(screen)
        assert "-[ RECORD 1 ]" in after and "…" not in after, screen
        assert re.search(r"^weight_kg \| \d+\.\d+$", after, re.M), screen
        assert all(len(line) <= 60 for line in after.splitlines()), screen


def test_an_update_that_row_level_security_stops_says_update_0(project, shell_env):
    with TmuxShell([SNM], env=shell_env) as shell:
        shell.wait_for_prompt()
        shell.run("login email 'bob@example.com' password 'password123'")
        statement = f'from user_info update {{"age": 99}} where id eq {ALICE}'
        after = shell.run(statement).split(statement)[-1]
        assert "UPDATE 0" in after, after
        assert "warning: no row was updated" in after, after
        statement = f'from user_info update {{"age": 28}} where id eq {BOB}'
        after = shell.run(statement).split(statement)[-1]
        assert "UPDATE 1" in after and "warning" not in after, after
        statement = "from mate delete where id eq -1"
        after = shell.run(statement).split(statement)[-1]
        assert "DELETE 0" in after and "warning: no row was deleted" in after, after


def test_expect_rows_reads_the_count_of_an_update_and_a_delete(project, tmp_path):
    script = tmp_path / "counts.snm"
    script.write_text(f"""
login email 'bob@example.com' password 'password123'
from user_info update {{"age": 99}} where id eq {ALICE}
expect rows 0
from user_info update {{"age": 28}} where id eq {BOB}
expect rows 1
from walk_request insert {{"sender": "{BOB}", "receiver": "{ALICE}", "message": "count me"}}
from walk_request delete where message eq 'count me'
expect rows 1
from walk_request delete where message eq 'count me'
expect rows 0
""")
    result = run_snm(str(script), env={"SUPABASE_URL": project.url,
                                       "SUPABASE_ANON_KEY": project.anon_key,
                                       "XDG_STATE_HOME": str(tmp_path / "state")})
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.splitlines()[1:] == ["UPDATE 0", "UPDATE 1", "inserted (HTTP 201)",
                                              "DELETE 1", "DELETE 0"], result.stdout
    # Scripts get no warning: the count is theirs to check.
    assert "warning" not in result.stderr


def test_explain_shows_the_count_an_update_asks_for():
    result = run_snm("explain", "--json", "from user_info delete where id eq 3")
    assert json.loads(result.stdout)["headers"]["Prefer"] == "return=minimal,count=exact"


def test_the_gateway_counts_deletes_as_postgrest_does(project):
    def send(method, path, prefer, body=None):
        request = urllib.request.Request(
            project.rest_url + path, method=method,
            data=json.dumps(body).encode() if body is not None else None,
            headers={**project.headers(project.service_role_key), "Prefer": prefer,
                     "Content-Type": "application/json"})
        with urllib.request.urlopen(request) as response:
            return response.status, response.headers.get("Content-Range")
    walk = {"sender": BOB, "receiver": ALICE, "message": "range check"}
    # Response.hs: DELETE's Content-Range is contentRangeH 1 0, `*/n` (`*/*` uncounted), as
    # POST's; PATCH's is `0-(n-1)/n`.
    assert send("POST", "/walk_request", "return=minimal,count=exact", walk) == (201, "*/1")
    assert send("PATCH", "/walk_request?message=eq.range%20check", "return=minimal,count=exact",
                {"message": "range check"}) == (204, "0-0/1")
    assert send("DELETE", "/walk_request?message=eq.range%20check",
                "return=minimal,count=exact") == (204, "*/1")
    assert send("POST", "/walk_request", "return=minimal", walk) == (201, "*/*")
    assert send("DELETE", "/walk_request?message=eq.range%20check", "return=minimal") == (
        204, "*/*")
    assert send("DELETE", "/walk_request?message=eq.range%20check",
                "return=minimal,count=exact") == (204, "*/0")


def test_empty_results_keep_their_header_and_csv_results_are_blocks(project, tmp_path):
    env = {"SUPABASE_URL": project.url, "SUPABASE_ANON_KEY": project.anon_key,
           "XDG_STATE_HOME": str(tmp_path / "state")}
    result = run_snm("-c", "from dog_profile select id, name where name eq 'nobody'; "
                           "from dog_profile select id, name where name eq 'nobody' maybe single",
                     env=env)
    assert result.stdout == " id | name\n----+------\n(0 rows)\n" * 2, result.stdout
    result = run_snm("--format", "csv", "-c",
                     "from dog_profile select id, name where name eq 'Bori'; "
                     'rpc sum {"numbers": [1, 2]}', env=env)
    assert result.stdout == "id,name\n1,Bori\n\nsum\n3\n", result.stdout


def openapi(project):
    request = urllib.request.Request(project.rest_url + "/", headers=project.headers())
    with urllib.request.urlopen(request) as response:
        return json.load(response)


def test_the_openapi_document_is_postgrests(rest_project):
    document = openapi(rest_project)
    kennels = document["definitions"]["kennels"]
    # makeTableDef: every NOT NULL column, with a default or not.
    assert kennels["required"] == ["id", "code", "name", "size", "open", "created_at"]
    properties = kennels["properties"]
    # parseDefault: a string type loses its cast and quotes; others are JSON or left out.
    assert properties["name"]["default"] == "unnamed"
    assert properties["size"]["default"] == "small"
    assert properties["open"]["default"] is True
    assert properties["created_at"]["default"] == "now()"
    assert "default" not in properties["id"]
    assert properties["code"]["maxLength"] == 8
    assert properties["fee"]["format"] == "numeric"
    assert properties["size"]["enum"] == ["small", "medium", "large"]
    assert "format" not in document["parameters"]["rowFilter.kennels.code"]
    # makePathItem: a table offers every verb whatever anon may do; a view that cannot be written
    # only GET.
    assert set(document["paths"]["/kennels"]) == {"get", "post", "patch", "delete"}
    assert set(document["paths"]["/kennel_counts"]) == {"get"}
    assert document["paths"]["/kennels"]["get"]["summary"] == "Where dogs stay"


def test_describe_and_tables_show_what_the_document_says(rest_project, tmp_path):
    env = {"SUPABASE_URL": rest_project.url, "SUPABASE_ANON_KEY": rest_project.anon_key,
           "XDG_STATE_HOME": str(tmp_path / "state"), "XDG_CACHE_HOME": str(tmp_path / "cache")}
    out = run_snm("-c", "describe kennels", env=env).stdout
    lines = out.splitlines()
    assert lines[0] == 'Table "kennels"', out
    row = {line.split("|")[0].strip(): [cell.strip() for cell in line.split("|")[1:]]
           for line in lines if "|" in line}
    assert row["id"] == ["bigint", "false", "", "primary key"], out
    assert row["code"] == ["character varying(8)", "false", "", ""], out
    assert row["name"] == ["text", "false", "unnamed", ""], out
    assert row["fee"] == ["numeric", "true", "", ""], out
    assert row["created_at"] == ["timestamp with time zone", "false", "now()", ""], out
    assert "Primary key: (id)" in out
    assert "unique and check constraints" in out and "numeric precision" in out
    detailed = run_snm("-c", "describe+ kennels", env=env).stdout
    assert "Description: Where dogs stay" in detailed
    assert "Short code on the sign" in detailed and "one of small, medium, large" in detailed
    view = run_snm("-c", "describe kennel_counts", env=env).stdout
    assert view.startswith('View "kennel_counts"\n') and "Read-only" in view, view
    tables = run_snm("-c", "tables", "--format", "ndjson", env=env).stdout
    kinds = {row["name"]: row["type"] for row in map(json.loads, tables.splitlines())}
    assert kinds["kennels"] == "table" and kinds["kennel_counts"] == "view", tables
