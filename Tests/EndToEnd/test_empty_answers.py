"""A 2xx answer with no body where the request's result belongs (rows, a function's result, a
listing) is no empty result: a proxy or gateway in front of the project answering for it, or a
server that lost the body. It passed as `fetched (HTTP 200)` (or a NULL row from `storage ls`),
exit 0: a CI gate behind a misconfigured proxy went green. Each is now refused, exit 3, printing
nothing; what PostgREST itself answers without a body (204 from a `void` function, a write
without `returning`, HEAD) passes as ever, against the real local project.

The hostile server is test_hostile_server.py's: a few lines of Python on a free port.
"""
import re

import pytest

from conftest import run_snm
from test_hostile_server import HostileServer, snm_against


def empty(status):
    """An answer of `status` with no body, saying it is JSON."""
    return (f"HTTP/1.1 {status}\r\nContent-Type: application/json\r\n"
            f"Content-Length: 0\r\n\r\n").encode()


@pytest.mark.parametrize("statement,status,path,write", [
    ("from todos select id", "200 OK", "/rest/v1/todos?select=id", False),
    ("from todos select id single", "200 OK", "/rest/v1/todos?select=id", False),
    ("from todos select id order by id all", "200 OK", "/rest/v1/todos?select=id", False),
    ('from todos insert {"title": "x"} returning id', "201 Created", "/rest/v1/todos?select=id",
     True),
    ('from todos update {"title": "x"} where id eq 1 returning id', "200 OK",
     "/rest/v1/todos?id=eq.1&select=id", True),
    ("rpc f", "200 OK", "/rest/v1/rpc/f", False),
    ("rpc get f", "200 OK", "/rest/v1/rpc/f", False),
    # storage ls is a POST that reads; rpc says the call (not a write) may have been applied.
    ("storage ls avatars", "200 OK", "/storage/v1/object/list/avatars", False),
    ("storage buckets", "200 OK", "/storage/v1/bucket", False),
], ids=["select", "single", "select all", "insert returning", "update returning", "rpc",
        "rpc get", "storage ls", "storage buckets"])
def test_an_empty_2xx_answer_where_a_result_belongs_is_refused(home, statement, status, path,
                                                                write):
    server = HostileServer(lambda head: empty(status))
    try:
        result = snm_against(server, statement, home)
        assert result.returncode == 3, (result.returncode, result.stdout, result.stderr)
        code = status.split()[0]
        assert f"malformed answer from {server.url}{path}" in result.stderr, result.stderr
        assert f": an empty body (HTTP {code}) where the request's result belongs (a proxy or " \
               "gateway in front of the project answering for it?)" in result.stderr
        assert ("the write may have been applied" in result.stderr) == write, result.stderr
        # Nothing that reads as a result: no summary, no NULL row, no header.
        assert result.stdout == "", result.stdout
    finally:
        server.stop()


def test_a_script_stops_at_the_empty_answer(home, tmp_path):
    """A CI gate's shape: a script that checks rows goes no further, exit 3, naming the line."""
    server = HostileServer(lambda head: empty("200 OK"))
    script = tmp_path / "gate.snm"
    script.write_text("from todos select id\necho 'reached'\n")
    try:
        result = run_snm("--url", server.url, "--key", "the-anon-key", str(script), env=home)
        assert result.returncode == 3, (result.stdout, result.stderr)
        assert f"{script}:1:1: error: the project's answer could not be read: from todos select " \
               "id" in result.stderr, result.stderr
        assert "reached" not in result.stdout
    finally:
        server.stop()


def test_an_answer_postgrest_sends_without_a_body_passes_and_an_rpc_s_200_without_one_not(
        home, project):
    """What PostgREST answers without a body passes, from the local project (a write without
    `returning`, a HEAD) as from a server saying the same (a `void` function's 204 too); a
    function's 200 without a body (PostgREST answers `void` with 204 since v12, with `null`
    before) is refused."""
    env = {**home, "SUPABASE_URL": project.url, "SUPABASE_ANON_KEY": project.anon_key}
    local = run_snm("-c", "login email 'alice@example.com' password 'password123'\n"
                    'from user_info update {"bio": "강아지와 산책하는 걸 좋아해요 🐶"} '
                    "where id eq 0c8e5f7a-6b9d-4f1e-9a3b-2d4c6e8f0a1b\n"
                    "from dog_profile select id count exact head", env=env)
    assert local.returncode == 0, local.stderr
    assert re.search(r"^UPDATE 1\nHEAD: \d+ rows \(HTTP 200\)\n$", local.stdout, re.M), \
        local.stdout
    for statement, status, said in [
            ('from todos insert {"title": "x"}', "201 Created", "inserted (HTTP 201)"),
            ("from todos delete where id eq 1", "204 No Content", "deleted (HTTP 204)"),
            ("rpc f", "204 No Content", "rpc f done (HTTP 204)"),
            ("from todos select id count exact head", "200 OK",
             "HEAD: rows not counted (HTTP 200)")]:
        server = HostileServer(lambda head: empty(status))
        try:
            result = snm_against(server, statement, home)
            assert result.returncode == 0, (statement, result.returncode, result.stderr)
            assert result.stdout == said + "\n", (statement, result.stdout)
        finally:
            server.stop()
    server = HostileServer(lambda head: empty("200 OK"))
    try:
        refused = snm_against(server, "rpc sleep_for", home)
        assert refused.returncode == 3, (refused.stdout, refused.stderr)
        assert "an empty body (HTTP 200)" in refused.stderr, refused.stderr
    finally:
        server.stop()
