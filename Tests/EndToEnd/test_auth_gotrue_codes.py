"""GoTrue's own answers (issue 39) where the local project offers no such sign-in: an OAuth
provider that is not enabled, SAML single sign-on, manual identity linking; and values Postgres
cannot store (a NUL character, `\\u0000` in JSON) in any field of any route, refused with a 4xx,
never a 500."""
import httpx
import pytest
from supabase_auth import SyncGoTrueAdminAPI, SyncGoTrueClient
from supabase_auth.types import CreateOAuthClientParams
from supabase_auth.errors import AuthApiError

from auth_helpers import new_email


def client_for(project):
    return SyncGoTrueClient(url=project.auth_url, headers=project.headers(),
                            auto_refresh_token=False, persist_session=False)


@pytest.mark.parametrize("provider, message", [
    ("github", "Unsupported provider: provider is not enabled"),
    ("Apple", "Unsupported provider: provider is not enabled"),
    ("myspace", "Unsupported provider: Provider myspace could not be found"),
    ("custom:acme", "Unsupported provider: custom OAuth providers are disabled"),
])
def test_authorize_names_why_the_provider_is_refused(project, provider, message):
    if provider == "github":  # the URL the official client sends the browser to
        url = client_for(project).sign_in_with_oauth({"provider": provider}).url
    else:  # names the client's own list refuses
        url = project.auth_url + "/authorize?provider=" + provider
    answer = httpx.get(url, headers=project.headers(), follow_redirects=False)
    assert answer.status_code == 400, answer.text
    assert answer.json()["error_code"] == "validation_failed" and answer.json()["msg"] == message


def test_single_sign_on_answers_that_saml_is_disabled(project):
    with pytest.raises(AuthApiError) as refused:
        client_for(project).sign_in_with_sso({"domain": "example.com"})
    assert refused.value.status == 404 and refused.value.code == "saml_provider_disabled"
    assert refused.value.message == "SAML 2.0 is disabled"
    for method, path in [("GET", "/sso/saml/metadata"), ("POST", "/sso/saml/acs"),
                         ("GET", "/sso")]:
        answer = httpx.request(method, project.auth_url + path, headers=project.headers())
        assert answer.status_code == 404 and answer.json()["error_code"] == "saml_provider_disabled"


def test_manual_linking_is_disabled_for_a_signed_in_user(project):
    client = client_for(project)
    url = project.auth_url + "/user/identities/authorize?provider=github"
    nobody = httpx.get(url, headers={"apikey": project.anon_key})
    assert nobody.status_code == 401 and nobody.json()["error_code"] == "no_authorization"
    anon = httpx.get(url, headers=project.headers())  # the anon key's token names no user
    assert anon.status_code == 403 and anon.json()["error_code"] == "bad_jwt"
    client.sign_up({"email": new_email("linking"), "password": "walk-the-dog"})
    with pytest.raises(AuthApiError) as refused:
        client.link_identity({"provider": "github"})
    assert refused.value.status == 404 and refused.value.code == "manual_linking_disabled"
    assert refused.value.message == "Manual linking is disabled"
    identity = client.get_user_identities().identities[0]
    with pytest.raises(AuthApiError) as unlink:
        client.unlink_identity(identity)
    assert unlink.value.status == 404 and unlink.value.code == "manual_linking_disabled"


def test_the_oauth_server_admin_routes_answer_that_it_is_disabled(project):
    admin = SyncGoTrueAdminAPI(url=project.auth_url,
                               headers={"apikey": project.status["secret_key"]})
    with pytest.raises(AuthApiError) as listed:
        admin.oauth.list_clients()
    assert listed.value.status == 404 and listed.value.code == "feature_disabled"
    assert listed.value.message == "OAuth server is disabled"
    with pytest.raises(AuthApiError) as created:
        admin.oauth.create_client(CreateOAuthClientParams(
            client_name="app", redirect_uris=["http://127.0.0.1:3000/cb"]))
    assert created.value.code == "feature_disabled"
    # Only an admin learns it: another caller is refused first.
    anon = httpx.get(project.auth_url + "/admin/oauth/clients", headers=project.headers())
    assert anon.status_code == 403 and anon.json()["error_code"] == "not_admin"


NUL = "a\u0000b"
JSON_NUL = {"note\u0000": "x", "v": "\u0000"}


def nul_requests(email, factor):
    """Every route and field that reaches a text or jsonb column (or a comparison with one),
    each with a value Postgres cannot store."""
    return [
        ("POST", "/signup", {"email": NUL + "@example.com", "password": "walk-the-dog"}),
        ("POST", "/signup", {"email": new_email("nul"), "password": "walk" + NUL + "dog"}),
        ("POST", "/signup", {"email": new_email("nul"), "password": "walk-the-dog",
                             "data": JSON_NUL}),
        ("POST", "/signup", {"phone": "+1555" + NUL, "password": "walk-the-dog"}),
        ("POST", "/token?grant_type=password", {"email": email, "password": NUL}),
        ("POST", "/token?grant_type=password", {"email": NUL, "password": "walk-the-dog"}),
        ("POST", "/token?grant_type=password", {"phone": NUL, "password": "walk-the-dog"}),
        ("POST", "/token?grant_type=refresh_token", {"refresh_token": "r" * 12 + NUL}),
        ("POST", "/token?grant_type=pkce", {"auth_code": NUL, "code_verifier": NUL}),
        ("POST", "/otp", {"email": NUL + "@example.com"}),
        ("POST", "/otp", {"email": new_email("nul"), "data": JSON_NUL}),
        ("POST", "/otp", {"phone": "+1555" + NUL}),
        ("POST", "/magiclink", {"email": "x" + NUL + "@example.com"}),
        ("POST", "/recover", {"email": "x" + NUL + "@example.com"}),
        ("POST", "/resend", {"type": "signup", "email": "x" + NUL + "@example.com"}),
        ("POST", "/resend", {"type": NUL, "email": email}),
        ("POST", "/verify", {"type": "email", "token": NUL, "email": email}),
        ("POST", "/verify", {"type": "email", "token_hash": NUL}),
        ("POST", "/verify", {"type": NUL, "token_hash": "abc"}),
        ("GET", "/verify?type=signup&token=a%00b", None),
        ("PUT", "/user", {"password": "new" + NUL + "pass"}),
        ("PUT", "/user", {"email": "x" + NUL + "@example.com"}),
        ("PUT", "/user", {"data": JSON_NUL}),
        ("PUT", "/user", {"password": "a-new-walk", "nonce": NUL}),
        ("POST", "/factors", {"factor_type": "totp", "friendly_name": NUL}),
        ("POST", "/factors", {"factor_type": NUL}),
        ("POST", f"/factors/{factor}/verify", {"challenge_id": NUL, "code": NUL}),
        ("POST", "/admin/users", {"email": NUL + "@example.com", "password": "walk-the-dog"}),
        ("POST", "/admin/users", {"email": new_email("nul"), "password": NUL}),
        ("POST", "/admin/users", {"email": new_email("nul"), "user_metadata": JSON_NUL}),
        ("POST", "/admin/users", {"email": new_email("nul"), "app_metadata": JSON_NUL}),
        ("POST", "/admin/users", {"email": new_email("nul"), "ban_duration": NUL}),
        ("POST", "/admin/users", {"phone": "+1555" + NUL}),
        ("POST", "/admin/generate_link", {"type": "signup", "email": new_email("nul"),
                                          "password": NUL}),
        ("POST", "/admin/generate_link", {"type": NUL, "email": email}),
        ("POST", "/admin/generate_link", {"type": "magiclink", "email": NUL}),
        ("POST", "/admin/generate_link", {"type": "email_change_new", "email": email,
                                          "new_email": NUL + "@example.com"}),
        ("POST", "/invite", {"email": NUL + "@example.com"}),
        ("POST", "/invite", {"email": new_email("nul"), "data": JSON_NUL}),
        ("GET", "/admin/users?page=1%002&per_page=%00", None),
    ]


def test_values_postgres_cannot_store_are_refused_with_a_4xx(project):
    email = new_email("nul-owner")
    client = client_for(project)
    session = client.sign_up({"email": email, "password": "walk-the-dog"}).session
    factor = client.mfa.enroll({"factor_type": "totp"}).id
    user_headers = project.headers(token=session.access_token)
    admin_headers = {"apikey": project.status["secret_key"]}
    with httpx.Client(base_url=project.auth_url) as http:
        for method, path, body in nul_requests(email, factor):
            admin = path.startswith("/admin") or path == "/invite"
            answer = http.request(method, path, json=body,
                                  headers=admin_headers if admin else user_headers)
            assert 400 <= answer.status_code < 500, (method, path, body, answer.text)
            assert answer.json().get("error_code"), (method, path, answer.text)
            # Which admin user got created with the value never matters: none may be.
            assert "\u0000" not in answer.text
        # A user update that failed changed nothing.
        user = admin_headers and http.get(f"/admin/users/{session.user.id}",
                                          headers=admin_headers).json()
        assert user["user_metadata"] == {}
