"""A 2xx answer of the wrong JSON shape is no result: `null`, `{}`, a number or a string where
PostgREST answers rows (an array), an array where `single` gets the row (an object), an object
where Storage lists buckets or a folder's entries. A misconfigured proxy or a hostile server
answering so was printed as a NULL row, an empty table or `uploaded ...`, exit 0: a CI gate went
green. Each is now refused, exit 3, naming the URL and what belongs there, printing nothing;
after a statement that writes, the message says the write may have been applied (by the
statement's kind, not its method: `storage ls` is a POST that reads, `rpc` may write). What the
real local project answers passes, a function's `null`, number or object included (PostgREST
answers a scalar function with a bare JSON value, and the OpenAPI document does not say which
functions return sets).

The hostile server is test_hostile_server.py's: a few lines of Python on a free port.
"""
import json
import re
import uuid

import pytest

from conftest import run_snm
from storage_helpers import ALICE
from test_hostile_server import HostileServer, json_answer, session_body, snm_against

ARRAY_OF_ROWS = "an array of rows"
THE_ROW = "an object (the row)"


@pytest.mark.parametrize("statement,body,path,found,belongs,write", [
    ("from todos select id", b"null", "/rest/v1/todos?select=id", "null", ARRAY_OF_ROWS, False),
    ("from todos select id", b"{}", "/rest/v1/todos?select=id", "an object", ARRAY_OF_ROWS,
     False),
    ("from todos select id", b" 1", "/rest/v1/todos?select=id", "a number", ARRAY_OF_ROWS, False),
    ("from todos select id", b'"x"', "/rest/v1/todos?select=id", "a string", ARRAY_OF_ROWS,
     False),
    ("from todos select id where id eq 1 single", b"[]", "/rest/v1/todos?select=id&id=eq.1",
     "an array", THE_ROW, False),
    ("from todos select id where id eq 1 single", b"null", "/rest/v1/todos?select=id&id=eq.1",
     "null", THE_ROW, False),
    ("from todos select id where id eq 1 maybe single", b"{}",
     "/rest/v1/todos?select=id&id=eq.1", "an object", ARRAY_OF_ROWS, False),
    ("from todos select id order by id all", b"{}",
     "/rest/v1/todos?select=id&order=id&limit=1000", "an object", ARRAY_OF_ROWS, False),
    ('from todos insert {"title": "x"} returning id', b"null", "/rest/v1/todos?select=id",
     "null", ARRAY_OF_ROWS, True),
    ('from todos update {"title": "x"} where id eq 1 returning id', b"{}",
     "/rest/v1/todos?id=eq.1&select=id", "an object", ARRAY_OF_ROWS, True),
    ("from todos delete where id eq 1 returning id single", b"[]",
     "/rest/v1/todos?id=eq.1&select=id", "an array", THE_ROW, True),
    ("storage ls avatars", b"null", "/storage/v1/object/list/avatars", "null",
     "an array of the folder's entries", False),
    ("storage ls avatars", b"{}", "/storage/v1/object/list/avatars", "an object",
     "an array of the folder's entries", False),
    ("storage buckets", b"{}", "/storage/v1/bucket", "an object", "an array of buckets", False),
    ("storage rm avatars/a.png", b"{}", "/storage/v1/object/avatars", "an object",
     "an array of the removed objects", True),
    ("storage info avatars/a.png", b"[]", "/storage/v1/object/info/avatars/a.png", "an array",
     "an object (the object's info)", False),
    ("storage upload '/etc/hostname' to avatars/a.txt", b"null", "/storage/v1/object/avatars/a.txt",
     "null", "an object (Storage's report of the write)", True),
    ("storage mv avatars/a.png to avatars/b.png", b"[]", "/storage/v1/object/move", "an array",
     "an object (Storage's report of the write)", True),
], ids=["select null", "select object", "select number", "select string", "single array",
        "single null", "maybe single object", "select all object", "insert returning null",
        "update returning object", "delete returning single array", "storage ls null",
        "storage ls object", "storage buckets object", "storage rm object", "storage info array",
        "storage upload null", "storage mv array"])
def test_an_answer_of_the_wrong_shape_is_refused(home, statement, body, path, found, belongs,
                                                  write):
    server = HostileServer(lambda head: json_answer(body))
    try:
        result = snm_against(server, statement, home)
        assert result.returncode == 3, (result.returncode, result.stdout, result.stderr)
        assert f"malformed answer from {server.url}{path}: {found} (HTTP 200) where {belongs} " \
               "belongs (a proxy or gateway in front of the project answering for it?)" \
               in result.stderr, result.stderr
        assert ("the write may have been applied; look before sending it again" in
                result.stderr) == write, result.stderr
        # Nothing that reads as a result: no NULL row, no header, no `uploaded ...`.
        assert result.stdout == "", result.stdout
    finally:
        server.stop()


def answering(status):
    """An answer of `status` with a JSON error body, as a gateway sends."""
    body = b'{"message": "upstream timed out"}'
    return lambda head: json_answer(body, status)


def test_what_may_have_been_applied_follows_the_statement_not_the_method(home):
    """`storage ls` and `storage sign` are POSTs that write nothing: a gateway's 502/504 to them
    said `the write may have been applied`; a POST `rpc` runs a function that may write, and
    says so as a call; `rpc get` runs read-only and an insert writes, as before."""
    for statement, status, said in [
            ("storage ls avatars", "504 Gateway Timeout", None),
            ("storage sign avatars/a.png expires 60", "502 Bad Gateway", None),
            ("rpc get sum", "502 Bad Gateway", None),
            ("rpc sum", "504 Gateway Timeout",
             "the call may have been applied (a function may write); look before calling it "
             "again"),
            ('from todos insert {"title": "x"}', "502 Bad Gateway",
             "the write may have been applied; look before sending it again")]:
        server = HostileServer(answering(status))
        try:
            result = snm_against(server, statement, home)
            assert result.returncode == 1, (statement, result.stdout, result.stderr)
            code = status.split()[0]
            advice = f"a gateway in front of the project had no answer from it (HTTP {code})"
            if said is None:
                assert "may have been applied" not in result.stderr, (statement, result.stderr)
            else:
                assert f"{advice}: {said}" in result.stderr, (statement, result.stderr)
        finally:
            server.stop()


def test_an_empty_answer_to_a_post_that_reads_says_nothing_of_a_write(home):
    """The empty-body refusal after `storage ls` (a POST) said the write may have been applied;
    after a POST `rpc` it says the call may have been."""
    for statement, said in [("storage ls avatars", None),
                            ("rpc sum", "; the call may have been applied (a function may "
                                        "write); look before calling it again")]:
        server = HostileServer(lambda head: json_answer(b""))
        try:
            result = snm_against(server, statement, home)
            assert result.returncode == 3, (statement, result.stdout, result.stderr)
            assert "an empty body (HTTP 200)" in result.stderr, result.stderr
            if said is None:
                assert "may have been applied" not in result.stderr, (statement, result.stderr)
            else:
                assert said in result.stderr, (statement, result.stderr)
        finally:
            server.stop()


def test_what_the_local_project_answers_passes_and_a_proxy_s_object_not(home, project, tmp_path):
    """Every shape PostgREST and Storage answer, from the real local project: rows, none, the
    row of `single`, `maybe single` of no row, a function's number, its set of rows and its
    `null`-free scalar of an empty array, a write's returned row (Alice's seeded bio written back
    as it is, so the shared rows stay as the golden files read them), and a bucket of the test's
    own made, filled, listed, read, signed, emptied and dropped (nothing left behind). Then the
    same `select` answered `{}` by a server in front of it is refused."""
    env = {**home, "SUPABASE_URL": project.url, "SUPABASE_ANON_KEY": project.anon_key}
    bio = "강아지와 산책하는 걸 좋아해요 🐶"
    login = run_snm("-c", "login email 'alice@example.com' password 'password123'", env=env)
    assert login.returncode == 0, login.stderr
    for statement, expected in [
            ("from dog_profile select id where id in (1, 2) order by id", [{"id": 1}, {"id": 2}]),
            ("from dog_profile select id where id eq 99", []),
            ("from dog_profile select id, name where id eq 1 single", {"id": 1, "name": "Bori"}),
            ("from dog_profile select id where id eq 99 maybe single", None),
            ('rpc sum {"numbers": [1, 2, 3]}', 6),
            ('rpc get sum {"numbers": []}', 0),
            (f'rpc dogs_of {{"owner": "{ALICE}"}} order by id limit 1', [1]),
            ('rpc sleep_for {"seconds": 0}', 0),
            (f'from user_info update {{"bio": "{bio}"}} where id eq {ALICE} returning id',
             [{"id": ALICE}]),
            (f'from user_info update {{"bio": "{bio}"}} where id eq {ALICE} returning id single',
             {"id": ALICE})]:
        result = run_snm("--format", "json", "-c", statement, env=env)
        assert result.returncode == 0, (statement, result.stderr)
        value = json.loads(result.stdout)
        if statement.startswith("rpc dogs_of"):
            value = [row["id"] for row in value]
        assert value == expected, (statement, result.stdout)
    bucket = "shape-" + uuid.uuid4().hex[:8]
    png = tmp_path / "a.png"
    png.write_bytes(bytes.fromhex("89504e470d0a1a0a"))
    key = project.service_role_key
    storage = run_snm("--key", key, "-c", "\n".join([
        f"storage create bucket {bucket}",
        f"storage upload '{png}' to {bucket}/d/a.png",
        f"storage mv {bucket}/d/a.png to {bucket}/d/b.png",
        f"storage cp {bucket}/d/b.png to {bucket}/d/c.png",
        "storage buckets",
        f"storage ls {bucket}/d/",
        f"storage info {bucket}/d/b.png",
        f"storage sign {bucket}/d/b.png expires 60",
        f"storage rm {bucket}/d/b.png",
        f"storage empty bucket {bucket}",
        f"storage drop bucket {bucket}",
    ]), env=env)
    if storage.returncode != 0:  # put back what the failure left
        run_snm("--key", key, "-c", f"storage empty bucket {bucket}\nstorage drop bucket {bucket}",
                env=env)
    assert storage.returncode == 0, (storage.stdout, storage.stderr)
    assert re.search(rf"^ ?{bucket} ", storage.stdout, re.M), storage.stdout
    assert re.search(r"^ ?b\.png +\| +8 ", storage.stdout, re.M), storage.stdout
    server = HostileServer(lambda head: json_answer(b"{}"))
    try:
        refused = snm_against(server, "from dog_profile select id", home)
        assert refused.returncode == 3, (refused.stdout, refused.stderr)
        assert "an object (HTTP 200) where an array of rows belongs" in refused.stderr
    finally:
        server.stop()


def test_an_auth_answer_without_what_snm_reads_is_refused(home):
    """GoTrue answers a user (`user show`, `user update`, `admin user`, `admin create user`,
    `admin invite`) with an object holding its `id`, and `admin users` with one holding
    `users`. `{}` printed nothing (or `updated the user's metadata`), exit 0; `null` said `the
    auth server's answer is not a session: not a user`, exit 1. Now exit 3, naming the URL."""
    login = "login email 'kim@example.com' password 'pw'\n"
    for statement, body, path, found, belongs, write in [
            (login + "user show", b"{}", "/auth/v1/user", "an object without 'id'",
             "an object with 'id' (the user)", False),
            (login + 'user update {"nick": "k"}', b'{"aud": "authenticated"}', "/auth/v1/user",
             "an object without 'id'", "an object with 'id' (the user)", True),
            (login + "user show", b"null", "/auth/v1/user", "null",
             "an object with 'id' (the user)", False),
            (f"admin user {ALICE}", b"{}", f"/auth/v1/admin/users/{ALICE}",
             "an object without 'id'", "an object with 'id' (the user)", False),
            ("admin create user email 'a@b.c' password 'pw123456'", b'{"id": null}',
             "/auth/v1/admin/users", "an object without 'id'", "an object with 'id' (the user)",
             True),
            ("admin invite 'a@b.c'", b"[]", "/auth/v1/invite", "an array",
             "an object with 'id' (the user)", True),
            ("admin users", b'{"aud": ""}', "/auth/v1/admin/users", "an object without 'users'",
             "an object with 'users' (a page of users)", False)]:
        server = HostileServer(
            lambda head: json_answer(session_body() if "/token?" in head.split("\r\n")[0]
                                     else body))
        try:
            result = snm_against(server, statement, home, "--service-key", "the-service-key")
            assert result.returncode == 3, (statement, result.stdout, result.stderr)
            assert f"malformed answer from {server.url}{path}: {found} (HTTP 200) where " \
                   f"{belongs} belongs" in result.stderr, (statement, result.stderr)
            assert ("the write may have been applied" in result.stderr) == write, \
                (statement, result.stderr)
            shown = result.stdout.replace("signed in as kim@example.com\n", "")
            assert shown == "", (statement, result.stdout)
        finally:
            server.stop()


@pytest.mark.parametrize("body", [b'{"id": "x"}', b'{"id": ""}',
                                  b'{"id": "x", "aud": "authenticated", "email": "kim@example.com"}'],
                         ids=["id-x", "id-empty", "id-x-with-email"])
def test_a_signup_answered_by_a_user_without_a_uuid_id_is_refused(home, body):
    """GoTrue answers a sign-up that waits for the e-mail's confirmation with the new user, bare
    (its `id` a UUID, as any user's; the local project's `--confirm-email` too): a body whose `id`
    is no UUID said `signed up; email confirmation is on ...`, exit 0. It is refused now, exit 3,
    as a `user` without an `id` was (`bad 'user'`)."""
    server = HostileServer(lambda head: json_answer(body))
    try:
        result = snm_against(server, "signup email 'kim@example.com' password 'pw123456'", home)
    finally:
        server.stop()
    assert result.returncode == 3, (result.stdout, result.stderr)
    assert "signed up" not in result.stdout + result.stderr
    assert result.stderr.endswith(
        "snm: signup failed: the auth server's answer is not a session: bad 'id'\n"), result.stderr
