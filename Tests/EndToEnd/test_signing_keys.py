"""Asymmetric JWTs, as hosted projects now sign user tokens: `snm local start --jwt-alg ES256` (and
RS256) signs sessions with a key of the project's, with a `kid`, and serves its public half at
/auth/v1/.well-known/jwks.json; the gateway verifies with it. The built snm handles such tokens
unchanged (it reads their claims, never verifies), and so do the official Python clients, whose
`get_claims` checks the signature against the JWKS.
"""
import base64
import json
import time
from pathlib import Path

import httpx
import jwt as pyjwt
import pytest
from cryptography.hazmat.primitives.asymmetric import ec
from postgrest import SyncPostgrestClient
from supabase_auth import SyncGoTrueClient

from conftest import run_snm, start_project

ALICE = "0c8e5f7a-6b9d-4f1e-9a3b-2d4c6e8f0a1b"


def segment(token, index):
    part = token.split(".")[index]
    return json.loads(base64.urlsafe_b64decode(part + "=" * (-len(part) % 4)))


@pytest.fixture(scope="module", params=["ES256", "RS256"])
def signed_project(request, snm_bin):
    project = start_project(f"signing-{request.param.lower()}", "--jwt-alg", request.param)
    project.algorithm = request.param
    yield project
    project.stop()


def jwks(project):
    response = httpx.get(project.auth_url + "/.well-known/jwks.json", timeout=30)
    assert response.status_code == 200, response.text
    return response.json()


def test_the_jwks_is_public_and_holds_the_signing_key(signed_project):
    status = signed_project.status
    assert status["jwt_alg"] == signed_project.algorithm
    assert status["jwks_url"] == signed_project.auth_url + "/.well-known/jwks.json"
    keys = jwks(signed_project)["keys"]
    assert len(keys) == 1
    key = keys[0]
    assert key["alg"] == signed_project.algorithm and key["use"] == "sig"
    assert key["kty"] == ("EC" if signed_project.algorithm == "ES256" else "RSA")
    assert not {"d", "p", "q", "dp", "dq", "qi"} & set(key), "no private part"
    # The same key after a restart.
    run_snm("local", "stop", "--dir", signed_project.data_dir)
    again = run_snm("local", "start", "--dir", signed_project.data_dir, "--port",
                    str(signed_project.port), "--json")
    assert again.returncode == 0, again.stderr
    assert jwks(signed_project)["keys"] == keys


def test_an_hs256_project_publishes_no_keys(project):
    assert jwks(project) == {"keys": []}


def test_snm_signs_in_queries_and_refreshes_with_signing_key_tokens(signed_project, home,
                                                                     tmp_path):
    env = {**home, "SUPABASE_URL": signed_project.url,
           "SUPABASE_ANON_KEY": signed_project.anon_key}
    login = run_snm("-c", "login email 'alice@example.com' password 'password123'; session show",
                    env=env)
    assert login.returncode == 0, login.stderr
    assert "role        authenticated" in login.stdout
    [path] = list((tmp_path / "state").rglob("session-*.json"))
    stored = json.loads(path.read_text())
    token = stored["session"]["access_token"]
    header = segment(token, 0)
    assert header["alg"] == signed_project.algorithm
    assert header["kid"] == jwks(signed_project)["keys"][0]["kid"]
    mine = run_snm("--format", "csv", "-c",
                   f"from walk_request select id where sender eq {ALICE} or receiver eq {ALICE}",
                   env=env)
    assert mine.returncode == 0, mine.stderr
    assert len(mine.stdout.splitlines()) >= 2
    # 10 s left: the next use refreshes, and the new token is signed the same way.
    stored["session"]["expires_at"] = int(time.time()) + 10
    stored["session"]["obtained_at"] = time.time() - 3000
    path.write_text(json.dumps(stored))
    check = run_snm("-c", "session check", env=env)
    assert check.returncode == 0, check.stderr
    fresh = json.loads(path.read_text())["session"]
    assert fresh["refresh_token"] != stored["session"]["refresh_token"]
    assert segment(fresh["access_token"], 0)["alg"] == signed_project.algorithm


def test_the_tokens_verify_against_the_jwks_by_themselves(signed_project):
    response = httpx.post(signed_project.auth_url + "/token?grant_type=password",
                          headers=signed_project.headers(),
                          json={"email": "bob@example.com", "password": "password123"}, timeout=30)
    assert response.status_code == 200, response.text
    token = response.json()["access_token"]
    key = pyjwt.PyJWK(jwks(signed_project)["keys"][0]).key
    claims = pyjwt.decode(token, key, algorithms=[signed_project.algorithm],
                          audience="authenticated")
    assert claims["email"] == "bob@example.com" and claims["role"] == "authenticated"


def test_the_official_clients_with_signing_key_tokens(signed_project):
    for key in (signed_project.anon_key, signed_project.status["publishable_key"]):
        auth = SyncGoTrueClient(url=signed_project.auth_url, headers={"apikey": key},
                                auto_refresh_token=False, persist_session=False)
        session = auth.sign_in_with_password(
            {"email": "alice@example.com", "password": "password123"}).session
        # get_claims verifies an asymmetric token's signature with the project's JWKS.
        claims = auth.get_claims(session.access_token)["claims"]
        assert claims["sub"] == ALICE
        assert auth.get_user(session.access_token).user.email == "alice@example.com"
        rest = SyncPostgrestClient(signed_project.rest_url, headers={
            "apikey": key, "Authorization": f"Bearer {session.access_token}"})
        me = rest.from_("user_info").select("name").eq("id", ALICE).single().execute()
        assert me.data["name"] == "Alice"


def test_tokens_of_another_key_or_no_algorithm_are_refused(signed_project):
    payload = {"sub": ALICE, "role": "authenticated", "aud": "authenticated",
               "exp": int(time.time()) + 600}
    kid = jwks(signed_project)["keys"][0]["kid"]
    stranger = ec.generate_private_key(ec.SECP256R1())
    forged = pyjwt.encode(payload, stranger, algorithm="ES256", headers={"kid": kid})
    unsigned = pyjwt.encode(payload, None, algorithm="none")
    for token in (forged, unsigned):
        response = httpx.get(signed_project.rest_url + "/user_info?select=name",
                             headers={"apikey": signed_project.anon_key,
                                      "Authorization": f"Bearer {token}"}, timeout=30)
        assert response.status_code == 401, response.text
        assert response.json()["code"] == "PGRST301"
        user = httpx.get(signed_project.auth_url + "/user",
                         headers={"apikey": signed_project.anon_key,
                                  "Authorization": f"Bearer {token}"}, timeout=30)
        assert user.status_code == 403 and user.json()["error_code"] == "bad_jwt"
    # The legacy HS256 keys still work in a project that signs with a key pair.
    legacy = httpx.get(signed_project.rest_url + "/dog_profile?select=name&limit=1",
                       headers=signed_project.headers(), timeout=30)
    assert legacy.status_code == 200 and len(legacy.json()) == 1


@pytest.mark.parametrize("algorithm", ["ES256", "RS256"])
def test_a_signing_keys_file_of_ones_own(algorithm, tmp_path, snm_bin):
    """`--signing-keys FILE`, the Supabase CLI's `signing_keys_path`: a JSON array of private JWKs
    (made here with `cryptography`, as `supabase gen signing-key` makes them): tokens carry its kid
    and verify with its public half, which the JWKS serves; an HS256 key that may only verify is
    passed over, as GoTrue signs with the key whose key_ops say `sign`."""
    from cryptography.hazmat.primitives.asymmetric import rsa
    private = ec.generate_private_key(ec.SECP256R1()) if algorithm == "ES256" else \
        rsa.generate_private_key(public_exponent=65537, key_size=2048)
    jwk = json.loads(pyjwt.algorithms.get_default_algorithms()[algorithm].to_jwk(private))
    jwk.update({"kid": f"ci-{algorithm.lower()}", "alg": algorithm, "key_ops": ["sign", "verify"]})
    verify_only = {"kty": "oct", "k": "c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0LXNlY3JldA",
                   "kid": "hs", "alg": "HS256", "key_ops": ["verify"]}
    keys_file = tmp_path / "signing_keys.json"
    keys_file.write_text(json.dumps([verify_only, jwk]))
    project = start_project(f"signing-file-{algorithm.lower()}", "--signing-keys", str(keys_file))
    try:
        assert project.status["jwt_alg"] == algorithm
        served = jwks(project)["keys"]
        assert [key["kid"] for key in served] == [jwk["kid"]]
        assert not {"d", "p", "q"} & set(served[0])
        client = SyncGoTrueClient(url=project.auth_url, headers=project.headers(),
                                  auto_refresh_token=False, persist_session=False)
        session = client.sign_up({"email": f"keys-{algorithm.lower()}@example.com",
                                  "password": "walk-the-dog"}).session
        header = segment(session.access_token, 0)
        assert header["alg"] == algorithm and header["kid"] == jwk["kid"]
        claims = pyjwt.decode(session.access_token, private.public_key(), algorithms=[algorithm],
                              audience="authenticated")
        assert claims["email"] == f"keys-{algorithm.lower()}@example.com"
        client.set_session(session.access_token, session.refresh_token)
        assert client.get_claims()["claims"]["sub"] == claims["sub"]
    finally:
        project.stop()
    keys_file.write_text("[]")
    refused = run_snm("local", "start", "--dir", project.data_dir, "--signing-keys",
                      str(keys_file))
    assert refused.returncode != 0 and "no EC P-256 or RSA key that may sign" in refused.stderr


def test_an_hs256_token_of_the_legacy_secret_signs_in_as_gotrue_lets_it(signed_project):
    """GoTrue's rule with signing keys on (parseJWTClaims): the token's kid picks the key. Without
    a kid, or with one naming no key, the legacy secret verifies an HS256 token, so it is
    accepted (the official client's get_claims asks the server for such a token); a kid naming
    the project's key pair gives a key that cannot check an HMAC, so it is refused, secret or not."""
    secret = (Path(signed_project.data_dir) / "jwt-secret").read_text().strip().encode()
    kid = jwks(signed_project)["keys"][0]["kid"]
    payload = {"sub": ALICE, "role": "authenticated", "aud": "authenticated",
               "exp": int(time.time()) + 600, "aal": "aal1"}
    headers = {"apikey": signed_project.anon_key}

    def user(token):
        return httpx.get(signed_project.auth_url + "/user",
                         headers={**headers, "Authorization": f"Bearer {token}"}, timeout=30)

    for extra in ({}, {"kid": "legacy-or-unknown"}):
        legacy = pyjwt.encode(payload, secret, algorithm="HS256", headers=extra)
        answer = user(legacy)
        assert answer.status_code == 200 and answer.json()["id"] == ALICE, answer.text
    auth = SyncGoTrueClient(url=signed_project.auth_url, headers=headers,
                            auto_refresh_token=False, persist_session=False)
    assert auth.get_claims(pyjwt.encode(payload, secret, algorithm="HS256"))["claims"]["sub"] \
        == ALICE
    named = pyjwt.encode(payload, secret, algorithm="HS256", headers={"kid": kid})
    refused = user(named)
    assert refused.status_code == 403, refused.text
    assert refused.json()["error_code"] == "bad_jwt"
    assert refused.json()["msg"] == ("invalid JWT: unable to parse or verify signature, "
                                     "token signature is invalid: key is of invalid type")
    other = pyjwt.encode(payload, b"another-secret-of-at-least-32-characters", algorithm="HS256")
    assert user(other).status_code == 403
