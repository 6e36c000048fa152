"""The server's row cap (issue 34, item 1): PostgREST's db-max-rows (1,000 on hosted projects and
in `snm local`) cuts a select with no limit. snm says so on standard error when an answer has
exactly the cap's rows and more match (it asks for the row after the cap), in every format and
for files; `all` reads every row a page at a time, each exactly once, streaming csv, json and
ndjson; a page that fails fails the statement and says how much was written; `expect rows` on a
cut answer says it was cut."""
import csv
import io
import json
import re
import time
import urllib.request

import pytest

from conftest import SNM, run_snm
from tmux_shell import TmuxShell

ROWS = 3000
WARNING = ("snm: warning: 1000 rows, the server's row cap: the answer is cut (more rows match); "
           "add 'all' to read every row, or set a limit")


@pytest.fixture(scope="module")
def big(start_extra_project):
    project = start_extra_project("rowcap")
    project.sql(
        "insert into dog_profile (owner, name, breed, age) "
        "select '0c8e5f7a-6b9d-4f1e-9a3b-2d4c6e8f0a1b', 'dog ' || g, 'Jindo', g % 15 "
        f"from generate_series(1, {ROWS - 4}) g; "  # the seed has 4
        # A computed column whose cast fails on row 2,500: on the third page of 1,000; Postgres
        # calls it after the sort and limit, row by row.
        "create function public.checked(public.dog_profile) returns int language plpgsql stable "
        "as $$ begin return case when $1.id = 2500 then cast('row ' || $1.id as int) else 1 end; "
        "end $$; "
        "create function public.every_dog() returns setof public.dog_profile language sql stable "
        "as $$ select * from public.dog_profile order by id $$; "
        "notify pgrst, 'reload schema'")
    return project


def env_of(project, tmp_path, **more):
    return {"SUPABASE_URL": project.url,
            "SUPABASE_SECRET_KEY": project.service_role_key,
            "XDG_STATE_HOME": str(tmp_path / "state"), "XDG_CACHE_HOME": str(tmp_path / "cache"),
            **more}


def ids_in_psql(project):
    return [int(line) for line in project.sql("select id from dog_profile order by id").split()]


def snm(project, tmp_path, *args, **more):
    return run_snm(*args, env=env_of(project, tmp_path, **more), cwd=str(tmp_path))


@pytest.mark.parametrize("fmt", ["table", "csv", "json", "ndjson"])
def test_a_capped_answer_is_named_on_stderr_in_every_format(big, tmp_path, fmt):
    result = snm(big, tmp_path, "--format", fmt, "-c", "from dog_profile select id")
    assert result.returncode == 0, result.stderr
    assert result.stderr.count(WARNING) == 1, result.stderr
    if fmt == "json":
        assert len(json.loads(result.stdout)) == 1000


@pytest.mark.parametrize("name", ["out.csv", "out.json", "out.ndjson", "out.txt"])
def test_a_capped_answer_written_to_a_file_is_named_too(big, tmp_path, name):
    result = snm(big, tmp_path, "-c", f"from dog_profile select id > '{name}'")
    assert result.returncode == 0, result.stderr
    assert result.stderr.count(WARNING) == 1, result.stderr
    assert (tmp_path / name).exists()


def test_a_capped_answer_under_backslash_o_is_named(big, tmp_path):
    result = snm(big, tmp_path, "-c", "\\o out.csv", "-c", "from dog_profile select id")
    assert result.returncode == 0, result.stderr
    assert result.stderr.count(WARNING) == 1, result.stderr


def test_no_warning_with_a_limit_fewer_rows_or_exactly_the_cap(big, tmp_path):
    for statement in ["from dog_profile select id limit 1000",
                      "from dog_profile select id where id lte 999",
                      # exactly 1,000 rows match: the look past the cap finds none
                      "from dog_profile select id where id lte 1000",
                      "from dog_profile select id where id lte 1000 order by id desc"]:
        result = snm(big, tmp_path, "--format", "csv", "-c", statement)
        assert result.returncode == 0, result.stderr
        assert "warning" not in result.stderr, (statement, result.stderr)
        assert "warning" not in result.stdout


def test_count_exact_says_it_without_a_second_look_and_an_rpc_may_be_cut(big, tmp_path):
    result = snm(big, tmp_path, "-c", "from dog_profile select id count exact")
    assert result.stderr.count(WARNING) == 1, result.stderr
    result = snm(big, tmp_path, "-c", "from dog_profile select id where id lte 1000 count exact")
    assert "warning" not in result.stderr
    result = snm(big, tmp_path, "--format", "ndjson", "-c", "rpc every_dog")
    assert result.returncode == 0, result.stderr
    assert len(result.stdout.splitlines()) == 1000
    assert result.stderr.count(
        "snm: warning: 1000 rows, the server's row cap: the answer may be cut; an rpc's rows past "
        "it need 'limit' and 'offset'") == 1, result.stderr
    result = snm(big, tmp_path, "-c", "rpc every_dog limit 10 offset 2990")
    assert result.returncode == 0 and "warning" not in result.stderr


def test_snm_max_rows_names_another_cap(big, tmp_path):
    result = snm(big, tmp_path, "-c", "from dog_profile select id limit 500", SNM_MAX_ROWS="500")
    # a limit: no warning, whatever the cap
    assert "warning" not in result.stderr
    result = snm(big, tmp_path, "-c", "from dog_profile select id where id lte 700",
                 SNM_MAX_ROWS="700")
    assert "warning" not in result.stderr  # exactly 700 match
    result = snm(big, tmp_path, "-c", "from dog_profile select id where id lte 701",
                 SNM_MAX_ROWS="off")
    assert "warning" not in result.stderr
    result = snm(big, tmp_path, "-c", "from dog_profile select id", SNM_MAX_ROWS="many")
    assert result.returncode == 2
    assert "SNM_MAX_ROWS is 'many'" in result.stderr


@pytest.mark.parametrize("fmt", ["csv", "json", "ndjson", "table"])
def test_all_reads_every_row_once_in_each_format(big, tmp_path, fmt):
    result = snm(big, tmp_path, "--format", fmt, "-c", "from dog_profile select id, name all")
    assert result.returncode == 0, result.stderr
    assert "warning" not in result.stderr
    assert "Time:" not in result.stderr
    if fmt == "csv":
        rows = list(csv.reader(io.StringIO(result.stdout)))
        assert rows[0] == ["id", "name"]
        ids = [int(row[0]) for row in rows[1:]]
    elif fmt == "json":
        ids = [row["id"] for row in json.loads(result.stdout)]
    elif fmt == "ndjson":
        ids = [json.loads(line)["id"] for line in result.stdout.splitlines()]
    else:
        lines = [line for line in result.stdout.splitlines() if " | " in line]
        assert lines[0].split("|")[0].strip() == "id"
        ids = [int(line.split("|")[0]) for line in lines[1:]]
        assert f"({ROWS} rows)" in result.stdout
    assert ids == ids_in_psql(big)


@pytest.mark.parametrize("name", ["all.csv", "all.json", "all.ndjson"])
def test_all_to_a_file_writes_every_row_once(big, tmp_path, name):
    result = snm(big, tmp_path, "-c", f"from dog_profile select id order by age desc all > '{name}'")
    assert result.returncode == 0, result.stderr
    text = (tmp_path / name).read_text()
    if name.endswith(".csv"):
        ids = [int(row[0]) for row in list(csv.reader(io.StringIO(text)))[1:]]
    elif name.endswith(".json"):
        ids = [row["id"] for row in json.loads(text)]
    else:
        ids = [json.loads(line)["id"] for line in text.splitlines()]
    # ordered by age, then by the primary key: every row once
    assert sorted(ids) == ids_in_psql(big)
    assert len(set(ids)) == ROWS
    expected = [int(line) for line in big.sql(
        "select id from dog_profile order by age desc, id").split()]
    assert ids == expected


def test_all_with_a_filter_and_offset_and_expect_rows(big, tmp_path):
    script = tmp_path / "all.snm"
    script.write_text("from dog_profile select id where id gt 100 offset 5 all > 'x.json'\n"
                      f"expect rows {ROWS - 105}\n")
    result = snm(big, tmp_path, str(script))
    assert result.returncode == 0, result.stdout + result.stderr
    ids = [row["id"] for row in json.loads((tmp_path / "x.json").read_text())]
    assert ids == [i for i in ids_in_psql(big) if i > 100][5:]


def test_a_page_that_fails_fails_the_statement(big, tmp_path):
    result = snm(big, tmp_path, "--format", "csv", "-c",
                 "from dog_profile select id, checked order by id all")
    assert result.returncode == 1, result.stderr
    assert "'all' stopped at page 3 (offset 2000): 2000 rows were written before it; " \
        "the output is incomplete" in result.stderr
    assert len(result.stdout.splitlines()) == 2001
    result = snm(big, tmp_path, "-c", "from dog_profile select id, checked order by id all > 'f.csv'")
    assert result.returncode == 1
    assert "'all' stopped at page 3 (offset 2000): nothing was written to 'f.csv'" in result.stderr
    assert not (tmp_path / "f.csv").exists()
    assert not list(tmp_path.glob(".f.csv.snm-*.part"))


def test_expect_rows_on_a_cut_answer_says_it_was_cut(big, tmp_path):
    script = tmp_path / "cut.snm"
    script.write_text("from dog_profile select id\nexpect rows >= 1001\n")
    result = snm(big, tmp_path, str(script))
    assert result.returncode == 1
    assert "1000 rows, the server's row cap: the answer was cut (add 'all' to the select to read " \
        "every row)" in result.stdout + result.stderr


def test_all_refuses_what_bounds_it_and_needs_an_order(big, tmp_path):
    result = snm(big, tmp_path, "-c", "from dog_profile select id limit 5 all")
    assert result.returncode == 2
    assert "'all' reads every row and cannot take 'limit'" in result.stderr
    big.sql("create or replace view public.dog_names as select id, name from public.dog_profile; "
            "grant select on public.dog_names to anon, authenticated, service_role; "
            "notify pgrst, 'reload schema'")
    result = snm(big, tmp_path, "-c", "from dog_names select id all")
    assert result.returncode == 2, result.stderr
    assert "needs an order that names each row once" in result.stderr
    result = snm(big, tmp_path, "--format", "ndjson", "-c", "from dog_names select id order by id all")
    assert result.returncode == 0, result.stderr
    assert [json.loads(line)["id"] for line in result.stdout.splitlines()] == ids_in_psql(big)


def test_let_binds_every_row_with_all_and_warns_without(big, tmp_path):
    script = tmp_path / "let.snm"
    script.write_text("let dogs = from dog_profile select id all\n"
                      f"expect $dogs count {ROWS}\n"
                      f"expect rows {ROWS}\n"
                      "let some = from dog_profile select id\n"
                      "expect $some count 1000\n")
    result = snm(big, tmp_path, str(script))
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout == ""
    assert result.stderr.count(WARNING) == 1, result.stderr


def test_all_csv_lines_end_as_the_other_csv_lines_do(big, tmp_path):
    for flags, end in [((), b"\n"), (("--csv-crlf",), b"\r\n")]:
        result = snm(big, tmp_path, *flags, "-c", "from dog_profile select id, name all > 'c.csv'")
        assert result.returncode == 0, result.stderr
        data = (tmp_path / "c.csv").read_bytes()
        lines = data.split(end)
        assert len(lines) == ROWS + 2 and lines[-1] == b"", (flags, data[:40])
        assert (b"\r" in data) == (end == b"\r\n")


def test_timing_counts_the_pages(big, tmp_path):
    result = snm(big, tmp_path, "--format", "csv", "-c", "\\timing on", "-c",
                 "from dog_profile select id all")
    assert result.returncode == 0, result.stderr
    assert re.search(r"^Time: network [0-9.]+ ms, rendering [0-9.]+ ms \(4 pages\)$",
                     result.stderr, re.M), result.stderr


def test_at_the_prompt_the_warning_shows_while_the_rows_go_to_a_file(big, tmp_path):
    env = {**env_of(big, tmp_path), "XDG_CONFIG_HOME": str(tmp_path / "config"), "PAGER": "cat"}
    with TmuxShell([SNM], env=env, width=160, cwd=str(tmp_path)) as shell:
        shell.wait_for_prompt()
        shell.run("set format csv")
        shell.run("\\o cut.csv")
        screen = shell.run("from dog_profile select id")
        assert screen.count(WARNING) == 1, screen
        shell.run("\\o every.csv")
        screen = shell.run("from dog_profile select id all")
        assert screen.count("warning") == 1, screen
        shell.run("\\o")
    assert len((tmp_path / "cut.csv").read_text().splitlines()) == 1001
    ids = [int(line) for line in (tmp_path / "every.csv").read_text().splitlines()[1:]]
    assert ids == ids_in_psql(big)


@pytest.fixture(scope="module")
def low_cap(start_extra_project):
    """A project whose db-max-rows (2) is below the 1,000 snm knows, as a hosted project's API
    settings may set it: the demo's 4 dogs come 2 at a time."""
    project = start_extra_project("lowcap")
    project.sql("alter role authenticator set pgrst.db_max_rows = '2'")
    project.sql("notify pgrst, 'reload config'")
    request = urllib.request.Request(project.rest_url + "/dog_profile?select=id",
                                     headers=project.headers(project.service_role_key))
    for _ in range(100):  # the gateway reloads its settings as the notice arrives
        with urllib.request.urlopen(request, timeout=10) as answer:
            if len(json.load(answer)) == 2:
                return project
        time.sleep(0.1)
    raise AssertionError("the gateway never took db_max_rows = 2")


LOW_CAP_WARNING = ("snm: warning: 2 of 4 rows: the server's row cap (db-max-rows) is 2, not the "
                   "1000 snm knows (set SNM_MAX_ROWS=2); the answer is cut; add 'all' to read "
                   "every row, or set a limit")


def test_a_counted_answer_cut_by_a_lower_cap_says_so(low_cap, tmp_path):
    """`count exact` gave "(2 rows of 4)" and exit 0 with no word that the server had cut the
    answer the user asked whole; the check only looked at answers of exactly 1,000 rows."""
    result = snm(low_cap, tmp_path, "--format", "csv", "-c",
                 "from dog_profile select id order by id count exact")
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["id", "1", "2"]
    assert result.stderr.count(LOW_CAP_WARNING) == 1, result.stderr
    script = tmp_path / "low.snm"
    script.write_text("from dog_profile select id count exact\nexpect rows 4\n")
    failed = snm(low_cap, tmp_path, str(script))
    assert failed.returncode == 1
    assert "found:    2 rows, the server's row cap: the answer was cut" in failed.stdout + failed.stderr
    # Told the cap, `all` reads every row; a whole counted answer says nothing.
    every = snm(low_cap, tmp_path, "--format", "csv", "-c",
                "from dog_profile select id order by id count exact all", SNM_MAX_ROWS="2")
    assert every.returncode == 0 and every.stdout.split() == ["id", "1", "2", "3", "4"], every.stderr
    whole = snm(low_cap, tmp_path, "-c", "from dog_profile select id where id lt 3 count exact")
    assert whole.returncode == 0 and "warning" not in whole.stderr, whole.stderr
