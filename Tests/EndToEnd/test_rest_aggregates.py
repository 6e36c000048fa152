"""The language's aggregates (issue 17): a cast before the aggregate (its input) and after it (its
result), and aggregates inside a to-one spread, as `snm explain` shows them (offline) and as they
run against a local project holding the core-aggregates fidelity fixtures (aggregates enabled)."""
import json
import pathlib

import pytest

from conftest import run_snm, start_project
from test_hostile_server import HostileServer, json_answer, snm_against

MIGRATIONS = pathlib.Path(__file__).resolve().parent / "fidelity" / "core-aggregates" / "migrations"
OFFLINE = {"SUPABASE_URL": "", "SUPABASE_ANON_KEY": "secret-anon-key-value"}


def explain(statement):
    result = run_snm("explain", "--json", statement, env=OFFLINE)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_casts_before_and_after_an_aggregate_are_sent_in_place():
    got = explain("from invoices select total:amount::int.sum()::text, amount.avg()::int, a::text")
    assert got["query"] == [["select", "total:amount::int.sum()::text,amount.avg()::int,a::text"]]


def test_aggregates_in_a_spread_are_sent_as_written():
    got = explain("from process_supervisor select supervisor_id, "
                  "...processes(n:count(), ...process_costs(cost::int.sum()))")
    assert got["query"] == [
        ["select", "supervisor_id,...processes(n:count(),...process_costs(cost::int.sum()))"]]


def test_an_unknown_aggregate_after_a_cast_is_refused_offline():
    result = run_snm("explain", "from t select ...r(amount::int.median())", env=OFFLINE)
    assert result.returncode == 2
    assert "'median()' is not an aggregate PostgREST knows" in result.stderr


@pytest.fixture(scope="module")
def aggregates_project(snm_bin, workdir):
    project = start_project("aggregates-language", "--migrations", str(MIGRATIONS))
    yield project
    project.stop()


def rows(project, statement):
    result = run_snm("--url", project.url, "--key", project.anon_key, "--format", "json",
                     "-c", statement)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_a_cast_before_the_aggregate_casts_each_value(aggregates_project):
    # 150.40 + 180.25 + 70.60 (Batch) and 200.00 + 40.00 (Mass): rounded before the sum, 401 and
    # 240; the sum cast to text keeps the exact 401.25.
    got = rows(aggregates_project,
               "from processes select ...process_categories(category:name), "
               "...process_costs(rounded:cost::int.sum(), exact:cost.sum()::text)")
    assert sorted(got, key=lambda row: row["category"]) == [
        {"category": "Batch", "rounded": 401, "exact": "401.25"},
        {"category": "Mass", "rounded": 240, "exact": "240.00"},
    ]


def test_a_count_in_a_spread_counts_the_parents_rows(aggregates_project):
    got = rows(aggregates_project,
               "from process_supervisor select supervisor_id, ...processes(n:count())")
    assert sorted(got, key=lambda row: row["supervisor_id"]) == [
        {"supervisor_id": 1, "n": 2}, {"supervisor_id": 2, "n": 2}, {"supervisor_id": 3, "n": 3}]


def test_an_aggregate_in_a_to_many_spread_is_refused(aggregates_project):
    result = run_snm("--url", aggregates_project.url, "--key", aggregates_project.anon_key,
                     "-c", "from factories select name, ...factory_buildings(size.sum())")
    assert result.returncode == 1
    assert "PGRST127" in result.stderr


def test_top_level_aggregates_are_answered_under_their_names_and_held_to_them(
        aggregates_project, home):
    """An aggregate without an alias is named by its function, a cast after it too (`sum`, `avg`,
    `count`), as PostgREST's answers are: the local project's answer passes the check on the
    columns asked for (test_answered_columns.py), and the same answer without `sum` is refused
    (it was printed, exit 0)."""
    statement = "from process_costs select cost.sum(), cost.avg()::int, n:count(), count()"
    got = rows(aggregates_project, statement)
    assert got == [{"sum": 641.25, "avg": 128, "n": 5, "count": 5}]
    body = json.dumps([{"avg": 128, "n": 5, "count": 5}]).encode()
    server = HostileServer(lambda head: json_answer(body))
    try:
        result = snm_against(server, statement, home, "--format", "json")
    finally:
        server.stop()
    assert result.returncode == 3, (result.stdout, result.stderr)
    assert "row 1 without 'sum' (its keys: \"avg\", \"n\", \"count\") (HTTP 200)" in \
        result.stderr, result.stderr
