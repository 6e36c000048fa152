"""Output formats on the demo data, through the real binary, compared with golden files.

The service_role key reads past row-level security, so every seed row shows: Korean text, an emoji,
NULL beside the string 'null', nested JSON. RECORD_SNAPSHOTS=1 rewrites the golden files.
"""
import json
import pathlib

import pytest

from conftest import run_snm
from script_golden import check_golden

GOLDEN = pathlib.Path(__file__).resolve().parent / "golden" / "shell"
FORMATS = ["table", "expanded", "json", "ndjson", "csv"]
QUERIES = {
    "users": "from user_info select id, name, age, bio, status, tags, data order by name",
    "one_dog": "from dog_profile select id, name, breed, weight_kg, traits where id eq 1",
    "empty": "from user_info select id, name where name eq 'nobody'",
    "counted": "from dog_profile select name order by id limit 2 count exact",
}


def snm_env(tmp_path):
    return {"XDG_STATE_HOME": str(tmp_path / "state"), "XDG_CACHE_HOME": str(tmp_path / "cache"),
            "SUPABASE_URL": "", "SUPABASE_ANON_KEY": ""}


def expect_golden(name, text):
    check_golden(GOLDEN / name, text)


@pytest.mark.parametrize("query", sorted(QUERIES))
@pytest.mark.parametrize("fmt", FORMATS)
def test_each_format_matches_its_golden_file(project, tmp_path, fmt, query):
    result = run_snm("--url", project.url, "--key", project.service_role_key, "--format", fmt,
                     "-c", QUERIES[query], env=snm_env(tmp_path))
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    expect_golden(f"{query}.{fmt}", result.stdout)


def test_json_output_is_the_rows_the_server_sent(project, tmp_path):
    result = run_snm("--url", project.url, "--key", project.service_role_key, "--format", "json",
                     "-c", QUERIES["users"], env=snm_env(tmp_path))
    rows = json.loads(result.stdout)
    names = [row["name"] for row in rows]
    assert "김민수" in names
    carol = next(row for row in rows if row["name"] == "Carol")
    assert carol["age"] is None and carol["bio"] == "null"
    alice = next(row for row in rows if row["name"] == "Alice")
    assert "🐶" in alice["bio"]
    assert list(carol) == ["id", "name", "age", "bio", "status", "tags", "data"]


def test_piped_statements_print_only_json(project, tmp_path):
    env = {**snm_env(tmp_path), "SUPABASE_URL": project.url, "SUPABASE_ANON_KEY": project.anon_key}
    result = run_snm("--format", "json", input="from user_info select *\n", env=env)
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    rows = json.loads(result.stdout)
    assert isinstance(rows, list) and rows and "name" in rows[0]
    assert "\x1b" not in result.stdout


def test_piped_statements_stop_at_the_first_failure_with_exit_one(project, tmp_path):
    env = {**snm_env(tmp_path), "SUPABASE_URL": project.url, "SUPABASE_ANON_KEY": project.anon_key}
    text = "from dog_profile select name where id eq 1\nfrom nope select *\necho 'not reached'\n"
    result = run_snm(input=text, env=env)
    assert result.returncode == 1
    assert "Bori" in result.stdout and "not reached" not in result.stdout
    assert "error PGRST205 (HTTP 404)" in result.stderr
    assert "advice: `tables` lists" in result.stderr


def test_a_parse_error_in_piped_input_exits_two_and_sends_nothing(project, tmp_path):
    env = {**snm_env(tmp_path), "SUPABASE_URL": project.url, "SUPABASE_ANON_KEY": project.anon_key}
    result = run_snm(input="from user_info selec *\n", env=env)
    assert result.returncode == 2
    assert result.stdout == ""
    assert "stdin:1:16: error:" in result.stderr
    assert "did you mean 'select'?" in result.stderr


def test_single_with_many_rows_advises_limit_one(project, tmp_path):
    result = run_snm("--url", project.url, "--key", project.service_role_key,
                     "-c", "from user_info select name single", env=snm_env(tmp_path))
    assert result.returncode == 1
    assert "error PGRST116 (HTTP 406)" in result.stderr
    assert "add `limit 1`" in result.stderr


def test_rls_refusal_says_which_role_asked(project, tmp_path):
    result = run_snm("--url", project.url, "--key", project.anon_key,
                     "-c", 'from dog_profile insert {"name": "Nope"}', env=snm_env(tmp_path))
    assert result.returncode == 1
    assert "error 42501" in result.stderr
    assert "the request ran as anon (no one signed in)" in result.stderr


def test_an_unreachable_project_exits_three(tmp_path):
    # Port 9 (discard): never a test project's (they take free ports in 54330-54999).
    result = run_snm("--url", "http://127.0.0.1:9", "--key", "k", "-c", "from t select *",
                     env=snm_env(tmp_path))
    assert result.returncode == 3
    assert "could not reach http://127.0.0.1:9" in result.stderr


def test_timing_goes_to_stderr(project, tmp_path):
    result = run_snm("--url", project.url, "--key", project.anon_key, "--format", "json",
                     "-c", "set timing on; rpc sum {\"numbers\": [1, 2]}", env=snm_env(tmp_path))
    assert result.returncode == 0
    assert json.loads(result.stdout) == 3
    assert result.stderr.startswith("Time: network ") and " ms, rendering " in result.stderr
