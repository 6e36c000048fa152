"""Tokens the REST gateway must refuse, answered as PostgREST answers them: 401 with PGRST301
(cannot decode / wrong signature) or PGRST303 (claims), `WWW-Authenticate: Bearer error=...`, and
nothing read or written. A role the token may not assume: 403 42501 when the role exists, 401 22023
when it does not (PostgREST 13). Any role `authenticator` may SET ROLE to is assumed, as PostgREST
assumes it: the three Supabase makes, one a project adds, and `authenticator` itself."""
import subprocess
import time
import uuid

import httpx
import pytest

from hardening import jwt_secret, mint, user_claims

ALICE = "0c8e5f7a-6b9d-4f1e-9a3b-2d4c6e8f0a1b"
OTHER_SECRET = b"not-the-project-secret-but-just-as-long-0123456789"


def refusals(secret):
    """(name, token, status, code, message) for every kind of bad token."""
    now = int(time.time())
    service = {"iss": "supabase", "role": "service_role", "iat": now, "exp": now + 3600}
    return [
        ("alg none", mint(secret, service, alg="none"), 401, "PGRST301",
         "Wrong or unsupported encoding algorithm"),
        ("alg None with a valid HS256 signature",
         mint(secret, service, header={"alg": "None", "typ": "JWT"}), 401, "PGRST301",
         "Wrong or unsupported encoding algorithm"),
        ("alg RS256", mint(secret, service, header={"alg": "RS256", "typ": "JWT"}), 401,
         "PGRST301", "Wrong or unsupported encoding algorithm"),
        ("signed with another secret", mint(OTHER_SECRET, user_claims(ALICE)), 401, "PGRST301",
         "JWT cryptographic operation failed"),
        ("payload changed after signing",
         swap_payload(mint(secret, user_claims(ALICE)), service), 401, "PGRST301",
         "JWT cryptographic operation failed"),
        ("expired a second ago", mint(secret, user_claims(ALICE, exp=now - 1)), 401, "PGRST303",
         "JWT expired"),
        ("expired long ago", mint(secret, user_claims(ALICE, exp=1)), 401, "PGRST303",
         "JWT expired"),
        ("not valid before tomorrow", mint(secret, user_claims(ALICE, nbf=now + 86400)), 401,
         "PGRST303", "JWT not yet valid"),
        ("issued tomorrow", mint(secret, user_claims(ALICE, iat=now + 86400)), 401, "PGRST303",
         "JWT issued at future"),
        ("wrong aud", mint(secret, user_claims(ALICE, aud="someone-else")), 401, "PGRST303",
         "JWT not in audience"),
        ("wrong aud list", mint(secret, user_claims(ALICE, aud=["a", "b"])), 401, "PGRST303",
         "JWT not in audience"),
        ("two parts", "abc.def", 401, "PGRST301", "Expected 3 parts in JWT; got 2"),
        *wrongly_typed(secret),
        ("role postgres", mint(secret, user_claims(ALICE, role="postgres")), 403, "42501",
         'permission denied to set role "postgres"'),
        ("role that does not exist", mint(secret, user_claims(ALICE, role="superhero")), 401,
         "22023", 'role "superhero" does not exist'),
    ]


def wrongly_typed(secret):
    """Claims of the wrong type, each refused by PostgREST 13 with 401 PGRST303 and its own words
    (a `nbf` or `iat` that is no number must not be read as absent)."""
    number = "The JWT '{}' claim must be a number"
    aud = "The JWT 'aud' claim must be a string or an array of strings"
    return [
        ("exp a string", mint(secret, user_claims(ALICE, exp="invalid")), 401, "PGRST303",
         number.format("exp")),
        ("nbf a string", mint(secret, user_claims(ALICE, nbf="invalid")), 401, "PGRST303",
         number.format("nbf")),
        ("iat a string", mint(secret, user_claims(ALICE, iat="invalid")), 401, "PGRST303",
         number.format("iat")),
        ("nbf a numeric string", mint(secret, user_claims(ALICE, nbf="0")), 401, "PGRST303",
         number.format("nbf")),
        ("iat an object", mint(secret, user_claims(ALICE, iat={"at": 0})), 401, "PGRST303",
         number.format("iat")),
        ("exp a boolean", mint(secret, user_claims(ALICE, exp=True)), 401, "PGRST303",
         number.format("exp")),
        ("aud an object", mint(secret, user_claims(ALICE, aud={"invalid": "value"})), 401,
         "PGRST303", aud),
        ("aud a number", mint(secret, user_claims(ALICE, aud=42)), 401, "PGRST303", aud),
        ("aud a list with an object",
         mint(secret, user_claims(ALICE, aud=[{"invalid": "value"}, "authenticated"])), 401,
         "PGRST303", aud),
    ]


def swap_payload(token, claims):
    import base64
    import json
    header, _payload, signature = token.split(".")
    payload = base64.urlsafe_b64encode(json.dumps(claims).encode()).rstrip(b"=").decode()
    return f"{header}.{payload}.{signature}"


@pytest.fixture(scope="module")
def http():
    with httpx.Client(timeout=30) as client:
        yield client


@pytest.fixture(scope="module")
def bad_tokens(project):
    return refusals(jwt_secret(project))


def test_bad_tokens_read_nothing(project, bad_tokens, http):
    for name, token, status, code, message in bad_tokens:
        response = http.get(f"{project.rest_url}/walk_request?select=*",
                             headers=project.headers(token=token))
        assert response.status_code == status, (name, response.text)
        body = response.json()
        assert body["code"] == code and body["message"] == message, (name, body)
        assert set(body) == {"code", "details", "hint", "message"}, name
        if status == 401:
            challenge = response.headers.get("www-authenticate", "")
            assert challenge.startswith("Bearer"), (name, response.headers)
            if code.startswith("PGRST"):
                assert challenge == (f'Bearer error="invalid_token", '
                                     f'error_description="{message.replace(chr(34), chr(39))}"')
        assert token not in response.text, f"{name}: the token is echoed back"


def test_bad_tokens_write_nothing(project, bad_tokens, http):
    service = project.headers(key=project.service_role_key)
    before = http.get(f"{project.rest_url}/dog_profile?select=id", headers=service).json()
    for name, token, status, _code, _message in bad_tokens:
        headers = {**project.headers(token=token), "Prefer": "return=representation"}
        attempts = [
            http.post(f"{project.rest_url}/dog_profile", headers=headers,
                       json={"owner": ALICE, "name": "Forged"}),
            http.patch(f"{project.rest_url}/dog_profile?id=eq.1", headers=headers,
                        json={"name": "Forged"}),
            http.delete(f"{project.rest_url}/dog_profile?id=eq.2", headers=headers),
            http.post(f"{project.rest_url}/rpc/dogs_of", headers=headers, json={"owner": ALICE}),
        ]
        for attempt in attempts:
            assert attempt.status_code == status, (name, attempt.request.method, attempt.text)
    after = http.get(f"{project.rest_url}/dog_profile?select=id,name", headers=service).json()
    assert [row["id"] for row in after] == [row["id"] for row in before]
    assert "Forged" not in {row["name"] for row in after}


def test_a_good_token_still_works(project, http):
    """The control: the same claims, correctly signed, read Alice's walk requests."""
    token = mint(jwt_secret(project), user_claims(ALICE))
    response = http.get(f"{project.rest_url}/walk_request?select=id&order=id",
                         headers=project.headers(token=token))
    assert response.status_code == 200 and response.json() == [{"id": 1}, {"id": 2}]


def test_the_apikey_header_cannot_be_forged_either(project, http):
    now = int(time.time())
    forged = mint(OTHER_SECRET, {"role": "service_role", "iat": now, "exp": now + 60})
    response = http.get(f"{project.rest_url}/walk_request",
                         headers={"apikey": forged, "Authorization": f"Bearer {forged}"})
    assert response.status_code == 401 and response.json()["message"] == "Invalid API key"
    auth = http.get(f"{project.auth_url}/user", headers={"apikey": forged})
    assert auth.status_code == 401


def superuser_sql(project, sql):
    subprocess.run(["psql", project.status["db_url"], "-XAtqc", sql], check=True,
                   capture_output=True, text=True, timeout=30)


def test_any_role_granted_to_authenticator_is_assumed(project, http):
    # PostgREST sets the token's role with SET ROLE: any role authenticator is a member of goes,
    # not only anon/authenticated/service_role (a read-only reporting role, say).
    granted, alone = f"reporter_{uuid.uuid4().hex[:8]}", f"loner_{uuid.uuid4().hex[:8]}"
    superuser_sql(project, f"create role {granted} nologin; grant {granted} to authenticator; "
                           f"grant select on public.dog_profile to {granted}; "
                           f"create role {alone} nologin; "
                           f"grant select on public.dog_profile to {alone}")
    try:
        def get(role, table="dog_profile"):
            token = mint(jwt_secret(project), user_claims(ALICE, role=role))
            return http.get(f"{project.rest_url}/{table}?select=id",
                            headers=project.headers(token=token))
        reporter = get(granted)
        assert reporter.status_code == 200, reporter.text
        # dog_profile has RLS: the reporting role has no policy, so it sees no row, and cannot write.
        assert reporter.json() == []
        written = http.post(f"{project.rest_url}/dog_profile",
                            headers=project.headers(token=mint(jwt_secret(project),
                                                               user_claims(ALICE, role=granted))),
                            json={"owner": ALICE, "name": "Forged"})
        assert written.status_code == 403 and written.json()["code"] == "42501", written.text
        # A role that exists but is not granted to authenticator: refused before any SQL runs.
        refused = get(alone)
        assert refused.status_code == 403, refused.text
        assert refused.json()["message"] == f'permission denied to set role "{alone}"'
        # authenticator itself: SET ROLE to oneself is allowed; it holds no table privilege.
        itself = get("authenticator", table="walk_request")
        assert itself.status_code == 403, itself.text
        assert itself.json()["code"] == "42501"
        assert itself.json()["message"] == "permission denied for table walk_request"
    finally:
        superuser_sql(project, f"revoke select on public.dog_profile from {granted}, {alone}; "
                               f"drop role {granted}; drop role {alone}")


def test_claim_types_are_checked_in_postgrests_order(project, http):
    """exp, nbf, iat, then aud, each its type then its time: the first that fails is the answer."""
    secret = jwt_secret(project)
    now = int(time.time())
    cases = [
        (user_claims(ALICE, exp=now - 3600, nbf="invalid"), "JWT expired"),
        (user_claims(ALICE, nbf="invalid", iat="invalid"), "The JWT 'nbf' claim must be a number"),
        (user_claims(ALICE, nbf=now + 86400, iat="invalid"), "JWT not yet valid"),
        (user_claims(ALICE, iat="invalid", aud=42), "The JWT 'iat' claim must be a number"),
        (user_claims(ALICE, aud=42), "The JWT 'aud' claim must be a string or an array of strings"),
    ]
    for claims, message in cases:
        response = http.get(f"{project.rest_url}/walk_request?select=id",
                            headers=project.headers(token=mint(secret, claims)))
        assert response.status_code == 401, (claims, response.text)
        assert response.json()["message"] == message, claims


def test_null_times_fractions_and_audiences_as_postgrest_13_reads_them(project, http):
    """PostgREST 13 types a null `exp`/`nbf`/`iat` as no number (401 PGRST303), reads a null `aud`
    or an empty `aud` list as any audience, and counts a time that is not a whole number as 0: a
    fractional `exp` (what `Date.now() / 1000 + 3600` makes) has expired."""
    secret = jwt_secret(project)
    for name in ("exp", "nbf", "iat"):
        token = mint(secret, user_claims(ALICE, **{name: None}))
        response = http.get(f"{project.rest_url}/walk_request?select=id",
                            headers=project.headers(token=token))
        assert response.status_code == 401, (name, response.text)
        assert response.json()["message"] == f"The JWT '{name}' claim must be a number", name
    now = time.time()
    fractional = mint(secret, user_claims(ALICE, exp=now + 3600.5))
    response = http.get(f"{project.rest_url}/walk_request?select=id",
                        headers=project.headers(token=fractional))
    assert response.status_code == 401 and response.json()["message"] == "JWT expired", response.text
    passing = [{"aud": None}, {"aud": []}, {"exp": float(int(now) + 3600)},
               {"nbf": now + 86400.5}, {"iat": now + 86400.5}]
    for extra in passing:
        token = mint(secret, user_claims(ALICE, **extra))
        response = http.get(f"{project.rest_url}/walk_request?select=id&order=id",
                            headers=project.headers(token=token))
        assert response.status_code == 200, (extra, response.text)
        assert response.json() == [{"id": 1}, {"id": 2}], extra


def test_storage_and_auth_refuse_the_same_tokens_in_their_own_words(project, http):
    """Storage (jose) and Auth (golang-jwt) share the verifier: a time claim that is no number is
    refused by both, as Storage-api answers (400, 403 AccessDenied, jose's message) and GoTrue
    answers (403 bad_jwt). jose, asked for no audience, never looks at `aud`; it refuses a null
    time claim that PostgREST and GoTrue read as absent."""
    secret = jwt_secret(project)
    storage_refusals = [
        ({"nbf": "invalid"}, '"nbf" claim must be a number'),
        ({"iat": "invalid"}, '"iat" claim must be a number'),
        ({"exp": "invalid"}, '"exp" claim must be a number'),
        ({"nbf": None}, '"nbf" claim must be a number'),
        ({"exp": None, "iat": "invalid"}, '"iat" claim must be a number'),
    ]
    for extra, message in storage_refusals:
        token = mint(secret, user_claims(ALICE, **extra))
        answer = http.get(f"{project.url}/storage/v1/bucket", headers=project.headers(token=token))
        assert answer.status_code == 400, (extra, answer.text)
        assert answer.json() == {"statusCode": "403", "code": "AccessDenied",
                                 "error": "Unauthorized", "message": message}, extra
    for extra in ({"aud": 42}, {"aud": {"invalid": "value"}}):
        token = mint(secret, user_claims(ALICE, **extra))
        answer = http.get(f"{project.url}/storage/v1/bucket", headers=project.headers(token=token))
        assert answer.status_code == 200, (extra, answer.text)
    for extra in ({"nbf": "invalid"}, {"iat": "invalid"}, {"exp": "invalid"}, {"aud": 42},
                  {"aud": [{"invalid": "value"}]}):
        token = mint(secret, user_claims(ALICE, **extra))
        answer = http.get(f"{project.auth_url}/user", headers=project.headers(token=token))
        assert answer.status_code == 403, (extra, answer.text)
        body = answer.json()
        assert body["error_code"] == "bad_jwt", (extra, body)
        assert body["msg"] == ("invalid JWT: unable to parse or verify signature, "
                               "token is malformed: could not JSON decode claim"), (extra, body)
    # golang-jwt reads a null time claim as absent: the token passes and names Alice.
    token = mint(secret, user_claims(ALICE, nbf=None, iat=None))
    answer = http.get(f"{project.auth_url}/user", headers=project.headers(token=token))
    assert answer.status_code == 200 and answer.json()["id"] == ALICE, answer.text
