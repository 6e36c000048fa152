"""Account changes under a stolen session or a hostile client (issue 35): a present password is
a password to check, whatever its value; an e-mail change with double confirmation needs both
addresses' codes; metadata is bounded so a token always fits a request head; malformed input is
refused, not a server error."""
import httpx

from auth_helpers import claims_of, new_email, newest_mail, totp


def signed_up(project, password="walk-the-dog"):
    email = new_email()
    answer = httpx.post(project.auth_url + "/signup", headers=project.headers(),
                        json={"email": email, "password": password})
    assert answer.status_code == 200, answer.text
    return email, answer.json()


def sign_in(project, email, password="walk-the-dog"):
    return httpx.post(project.auth_url + "/token?grant_type=password", headers=project.headers(),
                      json={"email": email, "password": password})


def update(project, token, body):
    return httpx.put(project.auth_url + "/user", headers=project.headers(token=token), json=body)


def test_an_empty_password_is_a_weak_one(project):
    email, session = signed_up(project)
    other = sign_in(project, email).json()
    answer = update(project, session["access_token"], {"password": ""})
    assert (answer.status_code, answer.json()["error_code"]) == (422, "weak_password"), answer.text
    # Nothing changed: the password still signs in, the other session still refreshes.
    assert sign_in(project, email).status_code == 200
    refreshed = httpx.post(project.auth_url + "/token?grant_type=refresh_token",
                           headers=project.headers(), json={"refresh_token": other["refresh_token"]})
    assert refreshed.status_code == 200, refreshed.text


def test_with_a_verified_factor_any_password_needs_aal2(project):
    email, session = signed_up(project)
    headers = project.headers(token=session["access_token"])
    factor = httpx.post(project.auth_url + "/factors", headers=headers,
                        json={"factor_type": "totp"}).json()
    challenge = httpx.post(project.auth_url + f"/factors/{factor['id']}/challenge",
                           headers=headers).json()
    verified = httpx.post(project.auth_url + f"/factors/{factor['id']}/verify", headers=headers,
                          json={"challenge_id": challenge["id"], "code": totp(factor["totp"]["secret"])})
    assert verified.status_code == 200, verified.text
    aal1 = sign_in(project, email).json()["access_token"]
    assert claims_of(aal1)["aal"] == "aal1"
    for password in ("", "a-new-strong-one"):
        answer = update(project, aal1, {"password": password})
        assert answer.status_code in (401, 422), answer.text
        assert answer.json()["error_code"] in ("insufficient_aal", "weak_password"), answer.text
    assert sign_in(project, email).status_code == 200


def test_an_email_change_needs_both_codes_without_confirm_email(project):
    """The session project autoconfirms new users (no --confirm-email): a thief with a session
    and their own mailbox still cannot move the account without the current address's code."""
    email, session = signed_up(project)
    token = session["access_token"]
    target = new_email("thief")
    assert update(project, token, {"email": target}).status_code == 200
    new_code = newest_mail(project, target, "email_change")["otp"]
    half = httpx.post(project.auth_url + "/verify", headers=project.headers(),
                      json={"type": "email_change", "email": target, "token": new_code})
    assert half.status_code == 200 and "session" not in half.json() and "access_token" not in half.json()
    assert half.json()["msg"].startswith("Confirmation link accepted")
    user = httpx.get(project.auth_url + "/user", headers=project.headers(token=token)).json()
    assert user["email"] == email, "one code must not move the account"
    current_code = newest_mail(project, email, "email_change")["otp"]
    done = httpx.post(project.auth_url + "/verify", headers=project.headers(),
                      json={"type": "email_change", "email": email, "token": current_code})
    assert done.status_code == 200 and "access_token" in done.json(), done.text
    user = httpx.get(project.auth_url + "/user",
                     headers=project.headers(token=done.json()["access_token"])).json()
    assert user["email"] == target
