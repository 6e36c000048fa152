"""The Auth gateway against the official `supabase-auth` client and raw GoTrue requests."""
import base64
import json
import time
import uuid

import httpx
import pytest
from supabase_auth import SyncGoTrueClient
from supabase_auth.errors import AuthApiError, AuthWeakPasswordError


def client_for(project):
    return SyncGoTrueClient(url=project.auth_url, headers=project.headers(),
                            auto_refresh_token=False, persist_session=False)


def claims_of(token):
    payload = token.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))


def new_email():
    return f"user-{uuid.uuid4().hex[:10]}@example.com"


def test_anonymous_sign_in_with_the_official_client(project):
    response = client_for(project).sign_in_anonymously()
    assert response.user.is_anonymous is True
    assert response.user.email in ("", None)
    assert response.session.token_type == "bearer"
    assert response.session.expires_in == 3600
    claims = claims_of(response.session.access_token)
    assert claims["role"] == "authenticated" and claims["is_anonymous"] is True
    assert claims["amr"][0]["method"] == "anonymous"
    assert claims["sub"] == response.user.id
    assert claims["aud"] == "authenticated" and claims["aal"] == "aal1"
    assert claims["exp"] - claims["iat"] == 3600 and "session_id" in claims


def test_sign_up_sign_in_refresh_get_user_logout(project):
    client = client_for(project)
    email = new_email()
    signed_up = client.sign_up({"email": email, "password": "secret123"})
    assert signed_up.user.email == email
    assert signed_up.user.is_anonymous is False
    assert signed_up.user.identities[0].provider == "email"
    assert signed_up.session is not None

    signed_in = client.sign_in_with_password({"email": email, "password": "secret123"})
    session = signed_in.session
    claims = claims_of(session.access_token)
    assert claims["email"] == email and claims["amr"][0]["method"] == "password"
    assert claims["session_id"] != claims_of(signed_up.session.access_token)["session_id"]

    refreshed = client.refresh_session(session.refresh_token)
    assert refreshed.session.refresh_token != session.refresh_token
    assert claims_of(refreshed.session.access_token)["session_id"] == claims["session_id"]

    user = client.get_user(refreshed.session.access_token)
    assert user.user.id == signed_in.user.id and user.user.email == email

    client.sign_out({"scope": "local"})
    gone = httpx.get(f"{project.auth_url}/user",
                     headers=project.headers(token=refreshed.session.access_token))
    assert gone.status_code == 403 and gone.json()["error_code"] == "session_not_found"


def test_wrong_password_and_duplicate_signup_codes(project):
    client = client_for(project)
    with pytest.raises(AuthApiError) as wrong:
        client.sign_in_with_password({"email": "alice@example.com", "password": "nope-nope"})
    assert wrong.value.status == 400 and wrong.value.code == "invalid_credentials"
    with pytest.raises(AuthApiError) as duplicate:
        client.sign_up({"email": "alice@example.com", "password": "password123"})
    assert duplicate.value.status == 422 and duplicate.value.code == "user_already_exists"
    with pytest.raises(AuthWeakPasswordError) as weak:
        client.sign_up({"email": new_email(), "password": "123"})
    assert weak.value.status == 422 and weak.value.code == "weak_password"
    assert weak.value.reasons == ["length"]


def test_both_error_formats(project):
    body = {"email": "alice@example.com", "password": "wrong-password"}
    url = f"{project.auth_url}/token?grant_type=password"
    legacy = httpx.post(url, headers=project.headers(), json=body)
    assert legacy.status_code == 400
    assert legacy.json() == {"code": 400, "error_code": "invalid_credentials",
                             "msg": "Invalid login credentials"}
    assert legacy.headers["x-sb-error-code"] == "invalid_credentials"
    dated = httpx.post(url, headers={**project.headers(), "X-Supabase-Api-Version": "2024-01-01"},
                       json=body)
    assert dated.json() == {"code": "invalid_credentials", "message": "Invalid login credentials"}
    assert dated.headers["x-supabase-api-version"] == "2024-01-01"


def test_request_errors(project):
    headers = project.headers()
    empty = httpx.post(f"{project.auth_url}/signup", headers=headers, content=b"")
    assert empty.status_code == 400 and empty.json()["error_code"] == "bad_json"
    broken = httpx.post(f"{project.auth_url}/signup", headers=headers, content=b'{"email":')
    assert broken.status_code == 400 and broken.json()["error_code"] == "bad_json"
    grant = httpx.post(f"{project.auth_url}/token?grant_type=magic", headers=headers, json={})
    assert grant.status_code == 400
    short = httpx.post(f"{project.auth_url}/token?grant_type=refresh_token", headers=headers,
                       json={"refresh_token": "abc"})
    assert short.status_code == 400 and short.json()["error_code"] == "validation_failed"
    unknown = httpx.post(f"{project.auth_url}/token?grant_type=refresh_token", headers=headers,
                         json={"refresh_token": "0123456789abcdef01234567"})
    assert unknown.status_code == 400 and unknown.json()["error_code"] == "refresh_token_not_found"
    no_bearer = httpx.get(f"{project.auth_url}/user", headers={"apikey": project.anon_key})
    assert no_bearer.status_code == 401 and no_bearer.json()["error_code"] == "no_authorization"
    anon_as_user = httpx.get(f"{project.auth_url}/user", headers=project.headers())
    assert anon_as_user.status_code == 403 and anon_as_user.json()["error_code"] == "bad_jwt"
    forged = project.anon_key.rsplit(".", 1)[0] + ".AAAA"
    bad = httpx.get(f"{project.auth_url}/user", headers=project.headers(token=forged))
    assert bad.status_code == 403 and bad.json()["error_code"] == "bad_jwt"
    scope = httpx.post(f"{project.auth_url}/logout?scope=everything", headers=project.headers())
    assert scope.status_code == 400 and scope.json()["error_code"] == "validation_failed"


def test_apikey_is_required_by_the_gateway(project):
    missing = httpx.get(f"{project.auth_url}/health")
    assert missing.status_code == 401
    assert missing.json()["message"] == "No API key found in request"
    invalid = httpx.get(f"{project.rest_url}/user_info", headers={"apikey": "not-a-key"})
    assert invalid.status_code == 401 and invalid.json()["message"] == "Invalid API key"


def test_refresh_within_reuse_interval_returns_the_active_token(project):
    first = httpx.post(f"{project.auth_url}/token?grant_type=password", headers=project.headers(),
                       json={"email": "bob@example.com", "password": "password123"}).json()
    url = f"{project.auth_url}/token?grant_type=refresh_token"
    second = httpx.post(url, headers=project.headers(), json={"refresh_token": first["refresh_token"]})
    assert second.status_code == 200
    again = httpx.post(url, headers=project.headers(), json={"refresh_token": first["refresh_token"]})
    assert again.status_code == 200, "a client that lost the last answer gets it again"
    assert again.json()["refresh_token"] == second.json()["refresh_token"]


@pytest.fixture(scope="module")
def short_project(start_extra_project):
    """Tokens live 2 s, refresh tokens are never reusable, requests must arrive within 2 s."""
    return start_extra_project("short", "--jwt-expiry", "2", "--refresh-reuse-interval", "0",
                               env={"SNM_HTTP_REQUEST_TIMEOUT": "2"})


def test_refresh_token_reuse_revokes_the_session(short_project):
    project = short_project
    signed_in = httpx.post(f"{project.auth_url}/token?grant_type=password",
                           headers=project.headers(),
                           json={"email": "alice@example.com", "password": "password123"}).json()
    url = f"{project.auth_url}/token?grant_type=refresh_token"
    a = signed_in["refresh_token"]
    b = httpx.post(url, headers=project.headers(), json={"refresh_token": a}).json()["refresh_token"]
    c_response = httpx.post(url, headers=project.headers(), json={"refresh_token": b})
    assert c_response.status_code == 200
    c = c_response.json()
    reused = httpx.post(url, headers=project.headers(), json={"refresh_token": a})
    assert reused.status_code == 400
    assert reused.json()["error_code"] == "refresh_token_already_used"
    revoked = httpx.post(url, headers=project.headers(), json={"refresh_token": c["refresh_token"]})
    assert revoked.status_code == 400
    assert revoked.json()["error_code"] == "refresh_token_not_found"
    user = httpx.get(f"{project.auth_url}/user", headers=project.headers(token=c["access_token"]))
    assert user.status_code == 403 and user.json()["error_code"] == "session_not_found"


def test_expired_access_token(short_project):
    project = short_project
    session = httpx.post(f"{project.auth_url}/signup", headers=project.headers(), json={}).json()
    assert session["expires_in"] == 2
    time.sleep(3)
    token = session["access_token"]
    rest = httpx.get(f"{project.rest_url}/user_info", headers=project.headers(token=token))
    assert rest.status_code == 401
    assert rest.json()["code"] == "PGRST303" and rest.json()["message"] == "JWT expired"
    assert "invalid_token" in rest.headers["www-authenticate"]
    auth = httpx.get(f"{project.auth_url}/user", headers=project.headers(token=token))
    assert auth.status_code == 403 and auth.json()["error_code"] == "bad_jwt"
    refreshed = httpx.post(f"{project.auth_url}/token?grant_type=refresh_token",
                           headers=project.headers(),
                           json={"refresh_token": session["refresh_token"]})
    assert refreshed.status_code == 200, "an expired access token is renewed with its refresh token"


def test_malformed_rest_tokens_are_pgrst301(project):
    for token, message in [("abc.def", "Expected 3 parts in JWT; got 2"),
                           (project.anon_key[:-4] + "AAAA", "JWT cryptographic operation failed")]:
        response = httpx.get(f"{project.rest_url}/user_info", headers=project.headers(token=token))
        assert response.status_code == 401
        assert response.json()["code"] == "PGRST301" and response.json()["message"] == message
