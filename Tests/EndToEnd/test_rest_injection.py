"""SQL injection through every place a request can put text: filter values, column names, table
names, order items, JSON keys, function names and arguments, embeds and profile headers. Each
attempt gets a 4xx with a message, and afterwards every table holds exactly what it held before.
The gateway binds every value as a parameter and quotes every identifier, so no input reaches SQL
as text."""
import urllib.parse

import pytest

from rest_helpers import http, snapshot

PAYLOADS = [
    "1; DROP TABLE people; --",
    "1' OR '1'='1",
    '1" OR "1"="1',
    "'; DELETE FROM people; --",
    "1 UNION SELECT value FROM secrets",
    "1); DROP TABLE people; --",
    "1 OR 1=1",
    "$1",
    "$$; DROP TABLE people; $$",
    '"; DROP TABLE people; --',
    'id"; DELETE FROM people; --',
    "1::int; TRUNCATE people",
    "pg_sleep(5)",
    "(SELECT value FROM secrets)",
    "1/**/OR/**/1=1",
    "' || (SELECT value FROM secrets) || '",
    "E'\\x27'",
    "1 AND (SELECT pg_sleep(2)) IS NULL",
    "*/ DROP TABLE people /*",
    '"people"; DROP TABLE "people"',
    "people WHERE 1=1; --",
    "name) VALUES ('x'); DROP TABLE people; --",
    "data->>'a'); DROP TABLE people; --",
    "💣'; DROP TABLE people; --",
    "\n; DROP TABLE people",
    "1;COMMIT;DROP TABLE people",
    "current_user",
    "version()",
    "lo_import('/etc/passwd')",
    "COPY people TO '/tmp/snm-injected'",
    "'; SET ROLE postgres; DELETE FROM people; --",
    "\\'; DROP TABLE people; --",
    "1) OR (1=1",
    "x' AND 1=(SELECT COUNT(*) FROM secrets) AND 'a'='a",
    "%27%3B%20DROP%20TABLE%20people%3B%20--",
    "; SELECT set_config('role', 'service_role', false); --",
]


def quoted(name):
    """A PostgREST name in double quotes (backslash escapes), so any text is a name."""
    return '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'


def enc(text):
    return urllib.parse.quote(text, safe="")


ATTEMPTS = [
    ("integer value", lambda p: ("GET", f"/people?age=eq.{enc(p)}", None, {})),
    ("uuid value", lambda p: ("GET", f"/people?id=eq.{enc(p)}", None, {})),
    ("in list", lambda p: ("GET", f"/people?age=in.({enc(quoted(p))})", None, {})),
    ("or tree", lambda p: ("GET", f"/people?or=(age.eq.{enc(quoted(p))},id.eq.{enc(quoted(p))})", None, {})),
    ("select column", lambda p: ("GET", f"/people?select={enc(quoted(p))}", None, {})),
    ("filter column", lambda p: ("GET", f"/people?{enc(quoted(p))}=eq.1", None, {})),
    ("order item", lambda p: ("GET", f"/people?order={enc(quoted(p))}.desc", None, {})),
    ("raw order", lambda p: ("GET", f"/people?order={enc(p)}", None, {})),
    ("table name", lambda p: ("GET", f"/{enc(p)}", None, {})),
    ("embed name", lambda p: ("GET", f"/people?select=name,{enc(quoted(p))}(*)", None, {})),
    ("json key", lambda p: ("POST", "/labels", {p: 1}, {})),
    ("column list", lambda p: ("POST", f"/labels?columns=id,{enc(quoted(p))}", {"id": 500}, {})),
    ("patch key", lambda p: ("PATCH", "/people?age=eq.30", {p: "x"}, {})),
    ("delete filter", lambda p: ("DELETE", f"/people?age=eq.{enc(p)}", None, {})),
    ("function name", lambda p: ("POST", f"/rpc/{enc(p)}", {}, {})),
    ("function argument", lambda p: ("POST", "/rpc/add", {p: 1}, {})),
    ("get argument", lambda p: ("GET", f"/rpc/add?a={enc(p)}", None, {})),
    ("profile header", lambda p: ("GET", "/people", None, {"Accept-Profile": p.replace("\n", " ").strip().encode()})),
]


@pytest.mark.parametrize("where,attempt", ATTEMPTS, ids=[a[0] for a in ATTEMPTS])
def test_injection_attempts_fail_cleanly_and_change_nothing(rest_project, where, attempt):
    before = snapshot(rest_project)
    for payload in PAYLOADS:
        method, path, body, headers = attempt(payload)
        kwargs = {"json": body} if body is not None else {}
        response = http(rest_project, method, path, key=rest_project.service_role_key, headers=headers, **kwargs)
        assert 400 <= response.status_code < 500, f"{where}: {payload!r} -> {response.status_code} {response.text}"
        error = response.json()
        assert error.get("message"), f"{where}: {payload!r} -> {response.text}"
    assert snapshot(rest_project) == before


def test_text_values_are_data_not_sql(rest_project):
    before = snapshot(rest_project)
    for payload in PAYLOADS:
        response = http(rest_project, "GET", f"/people?select=name&name=eq.{enc(payload)}")
        assert response.status_code == 200 and response.json() == [], payload
        response = http(rest_project, "GET", f"/people?select=name&name=like.{enc(payload)}")
        assert response.status_code == 200 and response.json() == [], payload
    stored = http(rest_project, "POST", "/labels?select=name", key=rest_project.service_role_key,
                  headers={"Prefer": "return=representation"},
                  json=[{"id": 700 + i, "name": p} for i, p in enumerate(PAYLOADS)])
    assert stored.status_code == 201 and [row["name"] for row in stored.json()] == PAYLOADS
    for i, payload in enumerate(PAYLOADS):
        found = http(rest_project, "GET", f"/labels?select=id&name=eq.{enc(payload)}")
        assert found.json() == [{"id": 700 + i}], payload
    cleanup = http(rest_project, "DELETE", "/labels?id=gte.700&id=lt.800", key=rest_project.service_role_key)
    assert cleanup.status_code == 204
    assert snapshot(rest_project) == before
