"""Sign in with Apple offline (issue 39): `snm local idp token` mints an id_token of the local
project's test issuer (its own key, Apple's issuer, the project's Apple client id), and
`POST /token?grant_type=id_token` through the official client's `sign_in_with_id_token` verifies it
as GoTrue does: issuer, signature, expiry, audience, the nonce's SHA-256. Tokens of another
project, another issuer, another audience, a wrong nonce or past their expiry are refused."""
import httpx
import pytest
from supabase_auth import SyncGoTrueClient
from supabase_auth.errors import AuthApiError

from auth_helpers import claims_of, new_email
from conftest import run_snm


@pytest.fixture(scope="module")
def apple_project(start_extra_project):
    return start_extra_project("auth-apple", "--apple")


def client_for(project):
    return SyncGoTrueClient(url=project.auth_url, headers=project.headers(),
                            auto_refresh_token=False, persist_session=False)


def mint(project, email, *flags):
    result = run_snm("local", "idp", "token", "--dir", str(project.data_dir), "--provider",
                     "apple", "--email", email, *flags)
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def test_sign_in_with_apple_makes_the_user_then_signs_it_in_again(apple_project):
    client = client_for(apple_project)
    email = new_email("apple")
    token = mint(apple_project, email, "--nonce", "raw-nonce-1")
    assert claims_of(token)["iss"] == "https://appleid.apple.com"
    assert claims_of(token)["nonce"] != "raw-nonce-1"  # its SHA-256, as Apple's
    session = client.sign_in_with_id_token(
        {"provider": "apple", "token": token, "nonce": "raw-nonce-1"}).session
    user = session.user
    assert user.email == email and user.email_confirmed_at
    assert user.app_metadata["provider"] == "apple"
    assert [identity.provider for identity in user.identities] == ["apple"]
    assert claims_of(session.access_token)["amr"][0]["method"] == "oauth"
    again = client.sign_in_with_id_token(
        {"provider": "apple", "token": mint(apple_project, email)}).session
    assert again.user.id == user.id
    assert client_for(apple_project).get_user(again.access_token).user.identities[0].provider \
        == "apple"


def test_a_new_apple_identity_links_to_the_user_with_its_address(apple_project):
    client = client_for(apple_project)
    email = new_email("apple-link")
    signed_up = client.sign_up({"email": email, "password": "walk-the-dog"}).user
    session = client.sign_in_with_id_token(
        {"provider": "apple", "token": mint(apple_project, email)}).session
    assert session.user.id == signed_up.id
    assert sorted(i.provider for i in session.user.identities) == ["apple", "email"]
    assert session.user.app_metadata["providers"] == ["email", "apple"]


@pytest.mark.parametrize("flags, nonce, status, code, message", [
    (["--nonce", "n-1"], "n-2", 400, None, "Nonces mismatch"),
    (["--nonce", "n-1"], None, 400, None,
     "Passed nonce and nonce in id_token should either both exist or not."),
    (["--audience", "com.example.other"], None, 400, None,
     "Unacceptable audience in id_token: [com.example.other]"),
    (["--expires-in", "0"], None, 400, None, "Bad ID token"),
    (["--issuer", "https://issuer.example.com"], None, 400, "validation_failed",
     "Detected ID token issuer is not an Apple ID token issuer"),
])
def test_tokens_the_project_must_refuse(apple_project, flags, nonce, status, code, message):
    token = mint(apple_project, new_email("apple-bad"), *flags)
    with pytest.raises(AuthApiError) as refused:
        client_for(apple_project).sign_in_with_id_token(
            {"provider": "apple", "token": token, **({"nonce": nonce} if nonce else {})})
    assert refused.value.status == status and refused.value.message == message
    if code:
        assert refused.value.code == code


def test_a_token_or_nonce_signs_in_once_while_it_is_valid(apple_project):
    """GoTrue's nonce check is there against replays: a token, or its nonce carried by another
    token, used a second time before the token expires is refused."""
    email = new_email("apple-replay")
    token = mint(apple_project, email, "--nonce", "once-only")
    credentials = {"provider": "apple", "token": token, "nonce": "once-only"}
    assert client_for(apple_project).sign_in_with_id_token(credentials).session.user.email == email
    for replay in [credentials, {**credentials,
                                 "token": mint(apple_project, email, "--nonce", "once-only")}]:
        answer = httpx.post(apple_project.auth_url + "/token?grant_type=id_token",
                            headers=apple_project.headers(),
                            json={"provider": "apple", "id_token": replay["token"],
                                  "nonce": "once-only"})
        assert answer.status_code == 400
        assert answer.json() == {"error": "invalid nonce",
                                 "error_description": "Nonce has already been used"}
    bare = mint(apple_project, email)
    assert client_for(apple_project).sign_in_with_id_token(
        {"provider": "apple", "token": bare}).session.user.email == email
    with pytest.raises(AuthApiError) as refused:
        client_for(apple_project).sign_in_with_id_token({"provider": "apple", "token": bare})
    assert refused.value.status == 400
    assert refused.value.message == "id_token has already been used"


def test_another_projects_token_is_refused(apple_project, project):
    token = mint(project, new_email("apple-elsewhere"))  # the session project's own key
    answer = httpx.post(apple_project.auth_url + "/token?grant_type=id_token",
                        headers=apple_project.headers(),
                        json={"provider": "apple", "id_token": token})
    assert answer.status_code == 400
    assert answer.json() == {"error": "invalid request", "error_description": "Bad ID token"}


def test_a_project_without_apple_answers_provider_disabled(project):
    result = run_snm("local", "idp", "token", "--dir", str(project.data_dir), "--provider",
                     "apple", "--email", "kim@example.com")
    assert result.returncode == 0 and "--apple" in result.stderr
    with pytest.raises(AuthApiError) as refused:
        client_for(project).sign_in_with_id_token(
            {"provider": "apple", "token": result.stdout.strip()})
    assert refused.value.status == 400 and refused.value.code == "provider_disabled"
    assert refused.value.message == 'Provider (issuer "https://appleid.apple.com") is not enabled'
    with pytest.raises(AuthApiError) as google:
        client_for(project).sign_in_with_id_token({"provider": "google", "token": "x.y.z"})
    assert google.value.code == "provider_disabled"
    settings = httpx.get(project.auth_url + "/settings", headers=project.headers()).json()
    assert settings["external"]["apple"] is False


def test_the_command_line_checks_its_options(project):
    missing = run_snm("local", "idp", "token", "--dir", str(project.data_dir), "--provider",
                      "apple")
    assert missing.returncode == 2 and "--email" in missing.stderr
    other = run_snm("local", "idp", "token", "--dir", str(project.data_dir), "--provider",
                    "google", "--email", "kim@example.com")
    assert other.returncode == 2 and "apple" in other.stderr
    stray = run_snm("local", "status", "--dir", str(project.data_dir), "--email", "x@y.z")
    assert stray.returncode == 2
