"""The PKCE flow (issue 39) of the local project's Auth through the official `supabase-auth`
client with `flow_type="pkce"`: the sign-up, magic link and recovery mails carry a `pkce_` token,
following the link answers with `?code=`, and `exchange_code_for_session` trades it with the
verifier the client kept; GoTrue's answers for a wrong verifier, an unknown or spent code and an
expired flow state."""
import base64
import hashlib
import urllib.parse

import httpx
import pytest
from supabase_auth import SyncGoTrueClient
from supabase_auth.errors import AuthApiError

from auth_helpers import claims_of, new_email, newest_mail


def pkce_client(project):
    return SyncGoTrueClient(url=project.auth_url, headers=project.headers(),
                            auto_refresh_token=False, persist_session=False, flow_type="pkce")


def follow(link):
    """Follows a mailed link; the code of its redirect (None when it has none) and the target."""
    answer = httpx.get(link, follow_redirects=False)
    assert answer.status_code == 303, answer.text
    location = answer.headers["location"]
    query = urllib.parse.parse_qs(urllib.parse.urlsplit(location).query)
    return (query.get("code") or [None])[0], location


def challenge_of(verifier):
    return base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).decode().rstrip("=")


def test_sign_up_confirms_through_a_code_and_its_exchange(confirming):
    client = pkce_client(confirming)
    email = new_email("pkce-signup")
    answer = client.sign_up({"email": email, "password": "walk-the-dog",
                             "options": {"email_redirect_to": confirming.url + "/welcome"}})
    assert answer.session is None
    mail = newest_mail(confirming, email, "signup")
    assert mail["token_hash"].startswith("pkce_") and "token=pkce_" in mail["link"]
    code, location = follow(mail["link"])
    assert location.startswith(confirming.url + "/welcome?code="), location
    assert "access_token" not in location
    session = client.exchange_code_for_session({"auth_code": code}).session
    assert session.user.email == email and session.user.email_confirmed_at
    assert claims_of(session.access_token)["amr"][0]["method"] == "email/signup"
    # A code is spent by its exchange.
    with pytest.raises(AuthApiError) as spent:
        client.exchange_code_for_session({"auth_code": code, "code_verifier": "x" * 43})
    assert spent.value.status == 404 and spent.value.code == "flow_state_not_found"


def test_magic_link_and_recovery_in_the_pkce_flow(project):
    client = pkce_client(project)
    email = new_email("pkce-link")
    client.sign_in_with_otp({"email": email})
    code, _ = follow(newest_mail(project, email, "magiclink")["link"])
    session = client.exchange_code_for_session({"auth_code": code}).session
    assert session.user.email == email
    assert claims_of(session.access_token)["amr"][0]["method"] == "magiclink"

    client.reset_password_for_email(email, {"redirect_to": project.url + "/reset"})
    code, location = follow(newest_mail(project, email, "recovery")["link"])
    assert location.startswith(project.url + "/reset?code=")
    session = client.exchange_code_for_session({"auth_code": code}).session
    assert claims_of(session.access_token)["amr"][0]["method"] == "recovery"
    client.update_user({"password": "a-new-walk"})
    assert client.sign_in_with_password({"email": email, "password": "a-new-walk"}).user


def test_the_verifier_must_answer_the_challenge(project):
    verifier = "v" * 50
    email = new_email("pkce-verifier")
    started = httpx.post(project.auth_url + "/otp", headers=project.headers(), json={
        "email": email, "code_challenge": challenge_of(verifier), "code_challenge_method": "S256"})
    assert started.status_code == 200, started.text
    code, _ = follow(newest_mail(project, email, "magiclink")["link"])
    token = project.auth_url + "/token?grant_type=pkce"
    wrong = httpx.post(token, headers=project.headers(),
                       json={"auth_code": code, "code_verifier": "w" * 50})
    assert wrong.status_code == 400 and wrong.json()["error_code"] == "bad_code_verifier"
    assert wrong.json()["msg"] == "code challenge does not match previously saved code verifier"
    unknown = httpx.post(token, headers=project.headers(),
                         json={"auth_code": "not-a-code", "code_verifier": verifier})
    assert unknown.status_code == 404 and unknown.json()["error_code"] == "flow_state_not_found"
    missing = httpx.post(token, headers=project.headers(), json={"auth_code": code})
    assert missing.status_code == 400 and missing.json()["error_code"] == "validation_failed"
    right = httpx.post(token, headers=project.headers(),
                       json={"auth_code": code, "code_verifier": verifier})
    assert right.status_code == 200, right.text
    assert right.json()["user"]["email"] == email


def test_an_expired_flow_state_is_refused(project):
    verifier = "e" * 43
    email = new_email("pkce-expired")
    assert httpx.post(project.auth_url + "/otp", headers=project.headers(),
                      json={"email": email}).status_code == 200  # the user, implicitly
    started = httpx.post(project.auth_url + "/recover", headers=project.headers(), json={
        "email": email, "code_challenge": verifier, "code_challenge_method": "plain"})
    assert started.status_code == 200, started.text
    code, _ = follow(newest_mail(project, email, "recovery")["link"])
    project.sql("update auth.flow_state set created_at = now() - interval '10 minutes' "
                f"where auth_code = '{code}'")
    late = httpx.post(project.auth_url + "/token?grant_type=pkce", headers=project.headers(),
                      json={"auth_code": code, "code_verifier": verifier})
    assert late.status_code == 422 and late.json()["error_code"] == "flow_state_expired"


@pytest.mark.parametrize("challenge, method, message", [
    ("a" * 43, "", "PKCE flow requires code_challenge_method and code_challenge"),
    ("short", "plain", "code challenge has to be between 43 and 128 characters"),
    ("a" * 42 + "!", "plain", "code challenge can only contain alphanumeric characters, "
     "hyphens, periods, underscores and tildes"),
    ("a" * 43, "md5", "Invalid code_challenge_method"),
])
def test_a_malformed_challenge_is_refused(project, challenge, method, message):
    answer = httpx.post(project.auth_url + "/magiclink", headers=project.headers(), json={
        "email": new_email("pkce-bad"), "code_challenge": challenge,
        "code_challenge_method": method})
    assert answer.status_code == 400 and answer.json()["error_code"] == "validation_failed"
    assert answer.json()["msg"] == message


def test_a_pkce_link_without_a_flow_state_redirects_with_the_error(project):
    email = new_email("pkce-gone")
    pkce_client(project).sign_in_with_otp({"email": email})
    mail = newest_mail(project, email, "magiclink")
    project.sql("delete from auth.flow_state where user_id = "
                f"(select id from auth.users where email = '{email}')")
    code, location = follow(mail["link"])
    assert code is None and "error_code=flow_state_not_found" in location


def test_resend_of_a_signup_mail_in_the_pkce_flow(confirming):
    email = new_email("pkce-resend")
    headers = confirming.headers()
    assert httpx.post(confirming.auth_url + "/signup", headers=headers,
                      json={"email": email, "password": "walk-the-dog"}).status_code == 200
    verifier = "r" * 43
    confirming.sql("update auth.users set confirmation_sent_at = now() - interval '2 minutes' "
                   f"where email = '{email}'")
    resent = httpx.post(confirming.auth_url + "/resend", headers=headers, json={
        "type": "signup", "email": email, "code_challenge": challenge_of(verifier),
        "code_challenge_method": "s256"})
    assert resent.status_code == 200, resent.text
    mail = newest_mail(confirming, email, "signup")
    assert mail["token_hash"].startswith("pkce_")
    code, _ = follow(mail["link"])
    answer = httpx.post(confirming.auth_url + "/token?grant_type=pkce", headers=headers,
                        json={"auth_code": code, "code_verifier": verifier})
    assert answer.status_code == 200, answer.text
    assert answer.json()["user"]["email_confirmed_at"]
    bad = httpx.post(confirming.auth_url + "/resend", headers=headers, json={
        "type": "signup", "email": email, "code_challenge": "short",
        "code_challenge_method": "s256"})
    assert bad.status_code == 400
    assert bad.json()["msg"] == "code challenge has to be between 43 and 128 characters"


def test_an_email_change_in_the_pkce_flow(project):
    client = pkce_client(project)
    email = new_email("pkce-change")
    session = client.sign_up({"email": email, "password": "walk-the-dog"}).session
    new = new_email("pkce-changed")
    verifier = "c" * 43
    changed = httpx.put(project.auth_url + "/user",
                        headers=project.headers(token=session.access_token),
                        json={"email": new, "code_challenge": verifier,
                              "code_challenge_method": "plain"})
    assert changed.status_code == 200, changed.text
    current = newest_mail(project, email, "email_change")
    to_new = newest_mail(project, new, "email_change")
    assert current["token_hash"].startswith("pkce_") and to_new["token_hash"].startswith("pkce_")
    follow(current["link"])  # the first of two confirmations
    code, _ = follow(to_new["link"])
    assert code, "the second confirmation answers with a code"
    answer = httpx.post(project.auth_url + "/token?grant_type=pkce", headers=project.headers(),
                        json={"auth_code": code, "code_verifier": verifier})
    assert answer.status_code == 200, answer.text
    assert answer.json()["user"]["email"] == new
