"""The columns a select (or `returning`) list asks for are checked against the rows that come back.
PostgREST answers each item under its name, so a 200 answer without one is no PostgREST's:
`from t select id` answered `[{"a":1}]` printed column `a`, exit 0, and a CI gate went green on a
proxy's or a gateway's answer. It is now refused, exit 3, naming the URL, the column asked for and
the keys the row has, printing nothing.

Only what no PostgREST can answer is refused: for each kind of item, the real local project's
answer passes (its keys are PostgREST's names: an alias, a cast's column, a JSON path's last key,
an embed's alias or relation), the same answer with every key the check does not hold to removed
passes too (`*`, a spread, a JSON path ending in an array index, an empty embed: their keys are
not in the list, or PostgREST's versions name them differently), and the same answer without the
item's key is refused. The hostile server is test_hostile_server.py's.
"""
import json

import pytest

from conftest import run_snm
from test_hostile_server import HostileServer, json_answer, snm_against

# (statement on dog_profile, the local project's keys of row 1, the keys held to, the key removed)
CASES = [
    ("select id where id eq 1", ["id"], ["id"], "id"),
    ("select n:name, age::text where id eq 1", ["n", "age"], ["n", "age"], "age"),
    ("select traits->friendly, traits->>tricks where id eq 1", ["friendly", "tricks"],
     ["friendly", "tricks"], "tricks"),
    ("select id, traits->tricks->0, traits->vet->visits->0 where id eq 1",
     ["id", "tricks", "visits"], ["id"], "id"),
    ("select owner:user_info(name), user_info!owner(age) where id eq 1",
     ["owner", "user_info"], ["owner", "user_info"], "user_info"),
    ("select id, o2:user_info(), ...user_info(bio) where id eq 1", ["id", "bio"], ["id"], "id"),
    ("select *, who:user_info(name) where id eq 1", None, ["who"], "who"),
    ("select id, name where id eq 1 single", ["id", "name"], ["id", "name"], "name"),
    ("select id, name where id eq 1 maybe single", ["id", "name"], ["id", "name"], "id"),
]
IDS = ["column", "alias-cast", "json-path", "json-index", "embeds", "empty-embed-spread",
       "star-embed", "single", "maybe-single"]


def local_answer(project, statement):
    result = run_snm("--url", project.url, "--key", project.anon_key, "--format", "json",
                     "-c", statement)
    assert result.returncode == 0, (statement, result.stderr)
    return json.loads(result.stdout)


def against(statement, answer, home):
    body = json.dumps(answer).encode()
    server = HostileServer(lambda head: json_answer(body))
    try:
        return server, snm_against(server, statement, home, "--format", "json")
    finally:
        server.stop()


@pytest.mark.parametrize("statement,local_keys,held,removed", CASES, ids=IDS)
def test_a_row_without_a_column_asked_for_is_refused(project, home, statement, local_keys, held,
                                                     removed):
    statement = f"from dog_profile {statement}"
    answer = local_answer(project, statement)
    # single's answer is the row; maybe single's the array of it, printed as the row.
    single = statement.endswith(" single")
    sent_alone = single and not statement.endswith("maybe single")
    row = answer if single else answer[0]
    if local_keys is not None:
        assert list(row) == local_keys, (statement, row)
    assert all(key in row for key in held), (statement, row)

    # What the check does not hold to may be missing: passes.
    only_held = {key: row[key] for key in held}
    wire = only_held if sent_alone else [only_held]
    _, result = against(statement, wire, home)
    assert result.returncode == 0, (statement, result.stderr)
    assert json.loads(result.stdout) == (only_held if single else wire)

    # A key it holds to missing: refused, naming the URL, the key and the keys the row has.
    without = {key: value for key, value in row.items() if key != removed}
    server, result = against(statement, without if sent_alone else [without], home)
    assert result.returncode == 3, (statement, result.returncode, result.stdout, result.stderr)
    assert result.stdout == ""
    keys = ("its keys: " + ", ".join(json.dumps(key) for key in without) if without
            else "it has no keys")
    which = "the row" if single else "row 1"
    belongs = ("the row with the columns asked for belongs" if single
               else "rows with the columns asked for belong")
    assert (f"malformed answer from {server.url}/rest/v1/dog_profile?select=" in result.stderr
            and f": {which} without '{removed}' ({keys}) (HTTP 200) where {belongs} "
            "(a proxy or gateway in front of the project answering for it?)\n"
            in result.stderr), (statement, result.stderr)


@pytest.mark.parametrize("body,found", [
    (b'[{"a":1}]', "row 1 without 'id' (its keys: \"a\")"),
    (b'[{}]', "row 1 without 'id' (it has no keys)"),
    (b'[{"id":1},{"a":2}]', "row 2 without 'id' (its keys: \"a\")"),
    (b'[{"id":1},{"id":2,"a":3},{"b":4}]', "row 3 without 'id' (its keys: \"b\")"),
    (b'[{"id":1},5]', "row 2 without 'id' (it is no object)"),
    (b'[{"a\\n\\u001b[31m":1}]', "row 1 without 'id' (its keys: \"a\\n\\u001b[31m\")"),
], ids=["other-key", "no-keys", "second-row", "third-row", "not-an-object", "escaped-key"])
def test_rows_without_the_column_asked_for_are_refused_whichever_row(home, body, found):
    """Every row is looked at when the rows' keys differ (no PostgREST answer does); a key with
    control characters is shown as a JSON string, never raw."""
    server = HostileServer(lambda head: json_answer(body))
    try:
        result = snm_against(server, "from todos select id", home, "--format", "json")
    finally:
        server.stop()
    assert result.returncode == 3, (result.stdout, result.stderr)
    assert result.stdout == ""
    assert result.stderr.endswith(
        f"malformed answer from {server.url}/rest/v1/todos?select=id: {found} (HTTP 200) where "
        "rows with the columns asked for belong (a proxy or gateway in front of the project "
        "answering for it?)\n"), result.stderr


@pytest.mark.parametrize("statement,path", [
    ('from todos insert {"title": "x"} returning id', "/rest/v1/todos?select=id"),
    ("from todos select id order by id all", "/rest/v1/todos?select=id&order=id&limit=1000"),
], ids=["insert-returning", "all-pages"])
def test_a_write_returning_and_a_paged_read_are_held_to_their_columns(home, statement, path):
    """A write with `returning` says it may have been applied; `all` checks its pages."""
    server = HostileServer(lambda head: json_answer(b'[{"a":1}]'))
    try:
        result = snm_against(server, statement, home, "--format", "json")
    finally:
        server.stop()
    assert result.returncode == 3, (result.stdout, result.stderr)
    assert result.stdout == ""
    applied = ("; the write may have been applied; look before sending it again"
               if "insert" in statement else "")
    assert result.stderr.endswith(
        f"malformed answer from {server.url}{path}: row 1 without 'id' (its keys: \"a\") "
        "(HTTP 200) where rows with the columns asked for belong (a proxy or gateway in front of "
        f"the project answering for it?){applied}\n"), result.stderr
