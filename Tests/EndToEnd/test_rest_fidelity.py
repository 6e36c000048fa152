"""The PostgREST fidelity suite: data-driven cases, each a request and the answer PostgREST gives.

Cases live under fidelity/<suite>/<area>.json; each suite has its own fixtures (fidelity/<suite>/
migrations/*.sql) and runs in a local project of its own, started once per session. The cases of
an area run in file order, so a case may read what an earlier one wrote. A case marked `pending`
is an expected failure, strictly: once it passes, the run fails until the mark is removed, so the
per-area counts (printed at the end of the run, see conftest.py) stay honest.

An area file: {"reference": "...", "cases": [{"name", "ref"?, "as"?, "request", "response",
"sql"?, "pending"?}]}; the format is documented in docs/testing.md.
"""
import json
import pathlib
import re
import time

import httpx
import pytest

from conftest import start_project
from hardening import jwt_secret, mint

FIDELITY = pathlib.Path(__file__).resolve().parent / "fidelity"
AUTHENTICATED_USER = "00000000-0000-4000-8000-00000000f1de"
CASE_KEYS = {"name", "ref", "as", "request", "response", "sql", "pending"}
REQUEST_KEYS = {"method", "path", "headers", "body", "text"}
RESPONSE_KEYS = {"status", "reason", "headers", "json", "json_contains", "text", "text_contains"}


def load_cases():
    """Every case of every area, as pytest params with ids suite/area/NNN-name. A malformed case
    stops the collection, naming it (`case_problems`): a pending one too, whose failure would
    otherwise pass as the expected one."""
    params = []
    for area_file in sorted(FIDELITY.glob("*/*.json")):
        suite, area = area_file.parent.name, area_file.stem
        document = json.loads(area_file.read_text())
        for index, case in enumerate(document["cases"], 1):
            case_id = f"{suite}/{area}/{index:03d}-{case.get('name', '?')}"
            problems = case_problems(case)
            if problems:
                raise ValueError(f"{area_file}: case {index} ({case.get('name', 'no name')}): "
                                 + "; ".join(problems))
            marks = []
            if case.get("pending"):
                marks.append(pytest.mark.xfail(reason=case["pending"], strict=True))
            params.append(pytest.param(suite, area, case, id=case_id, marks=marks))
    return params


def case_problems(case):
    """What is wrong with `case` as docs/testing.md describes one: unknown keys (a misspelled one
    checks nothing), no request path, a response that checks no status, an `sql` without both its
    query and the text it equals, an `as` the runner does not know; [] when nothing is."""
    if not isinstance(case, dict):
        return ["a case is an object"]
    problems = []
    unknown = set(case) - CASE_KEYS
    if unknown:
        problems.append(f"unknown case keys {sorted(unknown)}")
    if not isinstance(case.get("name"), str) or not case["name"]:
        problems.append("no name")
    request = case.get("request")
    if not isinstance(request, dict) or not isinstance(request.get("path"), str):
        problems.append("no request with a path")
    elif set(request) - REQUEST_KEYS:
        problems.append(f"unknown request keys {sorted(set(request) - REQUEST_KEYS)}")
    response = case.get("response")
    if not isinstance(response, dict) or not isinstance(response.get("status"), int):
        problems.append("no response with a status")
    elif set(response) - RESPONSE_KEYS:
        problems.append(f"unknown response keys {sorted(set(response) - RESPONSE_KEYS)}")
    elif len(set(response) & {"json", "json_contains", "text", "text_contains"}) > 1:
        problems.append("more than one of json, json_contains, text, text_contains")
    if "sql" in case and (not isinstance(case["sql"], dict)
                          or set(case["sql"]) != {"query", "equals"}):
        problems.append("sql is not {query, equals}")
    who = case.get("as")
    if not (who in (None, "anon", "service_role", "authenticated")
            or isinstance(who, dict) and set(who) == {"claims"}):
        problems.append(f"unknown `as`: {who!r}")
    if "pending" in case and not (isinstance(case["pending"], str) and case["pending"]):
        problems.append("pending without the reason")
    return problems


class Suite:
    """One suite's running project and an HTTP client for it."""

    def __init__(self, name):
        migrations = FIDELITY / name / "migrations"
        flags = ("--migrations", str(migrations)) if migrations.is_dir() else ()
        self.project = start_project(f"fidelity-{name}", *flags)
        self.secret = jwt_secret(self.project)
        self.client = httpx.Client(timeout=30, follow_redirects=False)

    def token(self, who):
        """The bearer token and apikey for a case's `as`."""
        project = self.project
        if who in (None, "anon"):
            return project.anon_key, project.anon_key
        if who == "service_role":
            return project.service_role_key, project.service_role_key
        if who == "authenticated":
            who = {"claims": {"sub": AUTHENTICATED_USER, "role": "authenticated",
                              "aud": "authenticated", "aal": "aal1", "is_anonymous": False}}
        if isinstance(who, dict) and set(who) == {"claims"}:
            now = int(time.time())
            claims = {"iat": now, "exp": now + 3600, **who["claims"]}
            return project.anon_key, mint(self.secret, claims)
        raise ValueError(f"unknown `as`: {who!r}")

    def close(self):
        self.client.close()
        self.project.stop()


@pytest.fixture(scope="session")
def fidelity_suites(snm_bin, workdir):
    """Suites started on first use, stopped at the end of the session."""
    suites, failures = {}, {}

    def get(name):
        if name in failures:  # a suite that did not start fails its cases at once, not once each
            pytest.fail(f"suite {name} did not start: {failures[name]}")
        if name not in suites:
            try:
                suites[name] = Suite(name)
            except (AssertionError, OSError) as error:
                failures[name] = str(error).splitlines()[0]
                raise
        return suites[name]

    yield get
    for suite in suites.values():
        suite.close()


def send(suite, case):
    request = case["request"]
    suite.client.cookies.clear()  # each case sends only the cookies its own headers carry
    apikey, bearer = suite.token(case.get("as"))
    headers = {"apikey": apikey, "Authorization": f"Bearer {bearer}"}
    headers.update(request.get("headers", {}))
    content = None
    if "body" in request:
        content = json.dumps(request["body"]).encode()
        if not any(name.lower() == "content-type" for name in headers):
            headers["Content-Type"] = "application/json"
    elif "text" in request:
        content = request["text"].encode()
    return suite.client.request(
        request.get("method", "GET"), suite.project.rest_url + request["path"],
        headers=headers, content=content)


def contains(actual, expected, where="body"):
    """A recursive subset check with the path of the first difference."""
    if isinstance(expected, dict):
        assert isinstance(actual, dict), f"{where}: expected an object, got {actual!r}"
        for key, value in expected.items():
            assert key in actual, f"{where}: no key {key!r} in {actual!r}"
            contains(actual[key], value, f"{where}.{key}")
    elif isinstance(expected, list):
        assert isinstance(actual, list), f"{where}: expected a list, got {actual!r}"
        assert len(actual) == len(expected), f"{where}: {len(actual)} items, expected {len(expected)}: {actual!r}"
        for index, (got, want) in enumerate(zip(actual, expected)):
            contains(got, want, f"{where}[{index}]")
    else:
        assert actual == expected, f"{where}: {actual!r} != {expected!r}"


def check(response, expected):
    body = response.text
    if "status" in expected:
        assert response.status_code == expected["status"], f"status {response.status_code}: {body[:500]}"
    if "reason" in expected:
        assert response.reason_phrase == expected["reason"], f"reason {response.reason_phrase!r}"
    for name, want in expected.get("headers", {}).items():
        got = response.headers.get(name)
        if want is None:
            assert got is None, f"header {name} should be absent, is {got!r}"
        elif isinstance(want, dict):
            assert got is not None and re.fullmatch(want["matches"], got), f"header {name}: {got!r}"
        else:
            assert got == want, f"header {name}: {got!r} != {want!r}"
    if "json" in expected or "json_contains" in expected:
        try:
            actual = response.json()
        except ValueError:
            pytest.fail(f"body is not JSON: {body[:500]!r}")
        if "json" in expected:
            assert actual == expected["json"], f"body {actual!r}"
        else:
            contains(actual, expected["json_contains"])
    if "text" in expected:
        assert body == expected["text"], f"body {body!r}"
    if "text_contains" in expected:
        assert expected["text_contains"] in body, f"body {body[:500]!r}"


@pytest.mark.parametrize("suite_name, area, case", load_cases())
def test_fidelity(fidelity_suites, suite_name, area, case):
    suite = fidelity_suites(suite_name)
    response = send(suite, case)
    check(response, case["response"])
    if "sql" in case:
        assert suite.project.sql(case["sql"]["query"]) == case["sql"]["equals"]
