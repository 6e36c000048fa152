"""Each PostgREST error the spec names comes back from snm's REST gateway with its status, code and
message shape {code, details, hint, message} (ref §6)."""
import pytest

from rest_helpers import KIM, http, sign_up

CASES = [
    # (method, path, headers, json body, status, code)
    ("GET", "/people?age=noop.1", {}, None, 400, "PGRST100"),
    ("GET", "/people?select=name,", {}, None, 400, "PGRST100"),
    ("GET", "/people?or=(age.eq.1,name.eq.a,b)", {}, None, 400, "PGRST100"),
    ("GET", "/people?order=age.sideways", {}, None, 400, "PGRST100"),
    ("GET", "/people?limit=ten", {}, None, 400, "PGRST100"),
    ("POST", "/labels", {"Content-Type": "application/json"}, "{broken", 400, "PGRST102"),
    ("GET", "/people?offset=50", {"Prefer": "count=exact"}, None, 416, "PGRST103"),
    ("GET", "/people", {"Range": "5-1"}, None, 416, "PGRST103"),
    ("PUT", "/rpc/add", {}, {}, 405, "PGRST101"),
    ("GET", "/people", {"Accept-Profile": "private"}, None, 406, "PGRST106"),
    ("GET", "/people", {"Accept": "application/xml"}, None, 406, "PGRST107"),
    ("GET", "/people?select=name&pets.name=eq.Bori", {}, None, 400, "PGRST108"),
    ("GET", "/people?select=name", {"Accept": "application/vnd.pgrst.object+json"}, None, 406, "PGRST116"),
    ("GET", "/people?select=name,pets(name)&order=pets(name)", {}, None, 400, "PGRST118"),
    # A filter other than is.null names a column, even beside an embed of that name (v13+).
    ("GET", "/people?select=name,pets(name)&pets=eq.1", {}, None, 400, "42703"),
    ("GET", "/people", {"Prefer": "handling=strict, nonsense=1"}, None, 400, "PGRST122"),
    ("GET", "/people?select=age.sum()", {}, None, 400, "PGRST123"),
    ("GET", "/people/extra/segments", {}, None, 404, "PGRST125"),
    ("GET", "/people?select=name,cats(name)", {}, None, 400, "PGRST200"),
    ("POST", "/rpc/ad", {}, {"a": 1}, 404, "PGRST202"),
    ("POST", "/labels", {}, {"id": 90, "nam": "x"}, 400, "PGRST204"),
    ("GET", "/peple", {}, None, 404, "PGRST205"),
    ("GET", "/people?age=eq.null", {}, None, 400, "22P02"),
    ("GET", "/people?select=name::notatype", {}, None, 400, "42704"),
    ("GET", "/people?select=nope", {}, None, 400, "42703"),
    ("POST", "/rpc/boom", {}, {}, 400, "P0001"),
    ("TRACE", "/people", {}, None, 405, "PGRST117"),
]


@pytest.mark.parametrize("method,path,headers,body,status,code", CASES, ids=[f"{c[5]}:{c[1]}" for c in CASES])
def test_error_codes(rest_project, method, path, headers, body, status, code):
    kwargs = {"content": body} if isinstance(body, str) else ({"json": body} if body is not None else {})
    response = http(rest_project, method, path, key=rest_project.service_role_key, headers=headers, **kwargs)
    assert response.status_code == status, response.text
    error = response.json()
    assert sorted(error) == ["code", "details", "hint", "message"]
    assert error["code"] == code and error["message"]
    assert response.headers["proxy-status"] == f"PostgREST; error={code}"


def test_a_body_deeper_than_postgres_parses_is_its_500_as_postgrest_answers(rest_project):
    # 16,000 levels: Postgres's recursive json parser runs out of stack (54001). PostgREST passes
    # such a body on and maps SQLSTATE class 54 to 500; the local project answers alike (a cap of
    # its own refused the 14,000 levels Postgres stores, test_security_output), stores nothing,
    # and serves the next request.
    deep = '{"id": 91, "name": ' + "[" * 16000 + "]" * 16000 + "}"
    response = http(rest_project, "POST", "/labels", key=rest_project.service_role_key,
                    headers={"Content-Type": "application/json"}, content=deep)
    assert response.status_code == 500, response.text
    assert response.json()["code"] == "54001"
    left = http(rest_project, "GET", "/labels?id=eq.91", key=rest_project.service_role_key)
    assert left.status_code == 200 and left.json() == []


def test_messages_read_as_postgrest_writes_them(rest_project):
    parse = http(rest_project, "GET", "/people?a.b=noop.0").json()
    # QueryParams.hs's own doctest (v13.0.8): Parsec's furthest error, at the operator's start
    assert parse["message"] == '"failed to parse filter (noop.0)" (line 1, column 1)'
    assert parse["details"] == 'unexpected "o" expecting "not" or operator (eq, gt, ...)'
    single = http(rest_project, "GET", "/people?select=name", headers={"Accept": "application/vnd.pgrst.object+json"})
    assert single.json()["message"] == "Cannot coerce the result to a single JSON object"
    assert single.json()["details"] == "The result contains 4 rows"
    table = http(rest_project, "GET", "/peple").json()
    assert table["message"] == "Could not find the table 'public.peple' in the schema cache"
    assert table["hint"] == "Perhaps you meant the table 'public.people'"
    function = http(rest_project, "POST", "/rpc/addd", json={"a": 1}).json()
    assert function["message"] == "Could not find the function public.addd(a) in the schema cache"
    assert function["hint"] == "Perhaps you meant to call the function public.add"
    relation = http(rest_project, "GET", "/people?select=name,pet(name)").json()
    assert relation["hint"] == "Perhaps you meant 'pets' instead of 'pet'."
    column = http(rest_project, "POST", "/labels", key=rest_project.service_role_key, json={"nam": "x"}).json()
    assert column["message"] == "Could not find the 'nam' column of 'labels' in the schema cache"
    offset = http(rest_project, "GET", "/people?offset=50", headers={"Prefer": "count=exact"})
    assert offset.json()["details"] == "An offset of 50 was requested, but there are only 4 rows."
    raised = http(rest_project, "POST", "/rpc/boom", json={}).json()
    assert raised == {"code": "P0001", "details": "it went off", "hint": "duck", "message": "boom"}


def test_ambiguous_embed_is_300_until_hinted(rest_project):
    response = http(rest_project, "GET", "/people?select=name,walks(note)")
    assert response.status_code == 300
    error = response.json()
    assert error["code"] == "PGRST201"
    assert error["message"] == "Could not embed because more than one relationship was found for 'people' and 'walks'"
    assert [item["cardinality"] for item in error["details"]] == ["one-to-many", "one-to-many"]
    assert "'walks!walks_guide_fkey'" in error["hint"] and "'walks!walks_walker_fkey'" in error["hint"]
    hinted = http(rest_project, "GET", "/people?select=name,walks!walker(note)&walks=not.is.null")
    assert hinted.status_code == 200 and hinted.json() == [{"name": "Lee", "walks": [{"note": "park"}]}]
    by_key = http(rest_project, "GET", "/walks?select=note,guide(name),walker:people!walker(name)")
    assert by_key.json() == [{"note": "park", "guide": {"name": "Kim"}, "walker": {"name": "Lee"}}]


def test_conflicts_are_409(rest_project):
    duplicate = http(rest_project, "POST", "/labels", key=rest_project.service_role_key, json={"id": 1, "name": "dup"})
    assert duplicate.status_code == 409
    assert duplicate.json()["code"] == "23505" and duplicate.json()["details"] == "Key (id)=(1) already exists."
    missing = http(rest_project, "POST", "/pets", key=rest_project.service_role_key,
                   json={"owner": "00000000-0000-4000-8000-0000000000ff", "name": "ghost"})
    assert missing.status_code == 409 and missing.json()["code"] == "23503"


def test_insufficient_privilege_is_401_for_anon_and_403_for_users(rest_project):
    anon = http(rest_project, "POST", "/labels", json={"id": 96, "name": "anon"})
    assert anon.status_code == 401 and anon.json()["code"] == "42501"
    assert anon.headers["www-authenticate"] == "Bearer"
    _, token = sign_up(rest_project)
    user = http(rest_project, "GET", "/secrets", token=token)
    assert user.status_code == 403 and user.json()["code"] == "42501"
    forged = http(rest_project, "POST", "/notes", token=token, json={"owner": KIM, "body": "forged"})
    assert forged.status_code == 403 and forged.json()["code"] == "42501"


def test_missing_apikey_is_401(rest_project):
    import httpx
    response = httpx.get(rest_project.rest_url + "/people")
    assert response.status_code == 401
    assert response.json()["message"] == "No API key found in request"
