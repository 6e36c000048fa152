"""The account flows (issue 21) through the official `supabase-auth` client against `snm local`:
confirmation mails read from the local inbox, OTP and magic links, recovery, user updates, MFA
with TOTP, and the admin API with the service key."""
import time

import httpx
import pytest
from supabase_auth import SyncGoTrueAdminAPI, SyncGoTrueClient
from supabase_auth.errors import AuthApiError, AuthError, AuthWeakPasswordError

from auth_helpers import claims_of, inbox, new_email, newest_mail, totp


def client_for(project):
    return SyncGoTrueClient(url=project.auth_url, headers=project.headers(),
                            auto_refresh_token=False, persist_session=False)


def admin_for(project, key=None):
    """The admin API as supabase-py sets it up: the new secret key as apikey alone (the gateway
    hands on its role's JWT), a legacy service_role key also as the Bearer token."""
    key = key or project.status["secret_key"]
    headers = {"apikey": key} if key.startswith("sb_") else project.headers(key=key)
    return SyncGoTrueAdminAPI(url=project.auth_url, headers=headers)


def test_signup_with_confirmation_through_the_inbox(confirming):
    client = client_for(confirming)
    email = new_email("confirm")
    answer = client.sign_up({"email": email, "password": "walk-the-dog"})
    assert answer.session is None and answer.user.email == email
    assert answer.user.email_confirmed_at is None and answer.user.confirmation_sent_at
    with pytest.raises(AuthApiError) as refused:
        client.sign_in_with_password({"email": email, "password": "walk-the-dog"})
    assert refused.value.status == 400 and refused.value.code == "email_not_confirmed"
    mail = newest_mail(confirming, email.upper(), "signup")  # the address in any case
    assert mail["subject"] == "Confirm Your Email" and len(mail["otp"]) == 6
    assert mail["link"].startswith(confirming.auth_url + "/verify?token=" + mail["token_hash"])
    assert mail["otp"] in mail["text"] and mail["link"] in mail["text"]
    verified = client.verify_otp({"email": email, "token": mail["otp"], "type": "signup"})
    assert verified.session.access_token and verified.user.email_confirmed_at
    assert claims_of(verified.session.access_token)["amr"][0]["method"] == "otp"
    signed_in = client.sign_in_with_password({"email": email, "password": "walk-the-dog"})
    assert signed_in.user.id == answer.user.id
    # A code works once.
    with pytest.raises(AuthApiError) as reused:
        client.verify_otp({"email": email, "token": mail["otp"], "type": "signup"})
    assert reused.value.status == 403 and reused.value.code == "otp_expired"


def test_the_mailed_link_redirects_with_the_session_in_the_fragment(confirming):
    email = new_email("link")
    client_for(confirming).sign_up({"email": email, "password": "walk-the-dog"})
    mail = newest_mail(confirming, email, "signup")
    followed = httpx.get(mail["link"], follow_redirects=False)
    assert followed.status_code == 303
    location = followed.headers["location"]
    assert location.startswith(confirming.url + "#access_token=")
    fragment = dict(item.split("=", 1) for item in location.split("#", 1)[1].split("&"))
    assert fragment["token_type"] == "bearer" and fragment["type"] == "signup"
    assert claims_of(fragment["access_token"])["email"] == email
    again = httpx.get(mail["link"], follow_redirects=False)
    assert again.status_code == 303
    assert "error_code=otp_expired" in again.headers["location"].split("#", 1)[1]


def test_magic_link_and_email_otp_sign_in(project):
    client = client_for(project)
    email = new_email("otp")
    client.sign_in_with_otp({"email": email})  # creates the user (create_user defaults to true)
    mail = newest_mail(project, email, "magiclink")
    session = client.verify_otp({"email": email, "token": mail["otp"], "type": "email"})
    assert session.user.email == email
    with pytest.raises(AuthApiError) as closed:
        client.sign_in_with_otp({"email": new_email("nobody"), "options": {"should_create_user": False}})
    assert closed.value.status == 422 and closed.value.code == "otp_disabled"


def test_password_reset_through_the_recovery_mail(project):
    client = client_for(project)
    email = new_email("reset")
    client.sign_up({"email": email, "password": "old-password"})
    client.reset_password_for_email(email)
    client.reset_password_for_email(new_email("unknown"))  # no error: GoTrue tells no one
    mail = newest_mail(project, email, "recovery")
    assert mail["subject"] == "Reset Your Password"
    recovered = client.verify_otp({"email": email, "token": mail["otp"], "type": "recovery"})
    client.set_session(recovered.session.access_token, recovered.session.refresh_token)
    client.update_user({"password": "new-password"})
    fresh = client_for(project)
    assert fresh.sign_in_with_password({"email": email, "password": "new-password"}).session
    with pytest.raises(AuthApiError):
        fresh.sign_in_with_password({"email": email, "password": "old-password"})


def test_user_update_of_metadata_and_email(project):
    client = client_for(project)
    email, changed = new_email("meta"), new_email("moved")
    session = client.sign_up({"email": email, "password": "walk-the-dog",
                              "options": {"data": {"dog": "rex", "walks": 2}}}).session
    client.set_session(session.access_token, session.refresh_token)
    updated = client.update_user({"data": {"walks": 3, "dog": None}}).user
    assert updated.user_metadata == {"walks": 3}
    pending = client.update_user({"email": changed}).user
    assert pending.email == email and pending.new_email == changed
    kinds = {(mail["to"], mail["kind"]) for mail in inbox(project, limit=20)}
    assert (changed, "email_change") in kinds and (email, "email_change") in kinds
    mail = newest_mail(project, changed, "email_change")
    # Double confirmation (the default) takes both addresses' codes, even where new users are
    # confirmed at once (issue 35): the first one only accepts the link.
    half = client.verify_otp({"email": changed, "token": mail["otp"], "type": "email_change"})
    assert half.user is None and half.session is None
    mail = newest_mail(project, email, "email_change")
    done = client.verify_otp({"email": email, "token": mail["otp"], "type": "email_change"})
    assert done.user.email == changed and not done.user.new_email
    with pytest.raises(AuthApiError) as same:
        client.set_session(done.session.access_token, done.session.refresh_token)
        client.update_user({"password": "walk-the-dog"})
    assert same.value.code == "same_password"


def test_totp_enrolment_challenge_and_verify_reach_aal2(project):
    client = client_for(project)
    session = client.sign_up({"email": new_email("mfa"), "password": "walk-the-dog"}).session
    client.set_session(session.access_token, session.refresh_token)
    enrolled = client.mfa.enroll({"factor_type": "totp", "friendly_name": "phone"})
    assert enrolled.type == "totp" and len(enrolled.totp.secret) == 32
    assert enrolled.totp.uri.startswith("otpauth://totp/") and enrolled.totp.secret in enrolled.totp.uri
    assert enrolled.totp.qr_code.startswith("data:image/svg+xml;utf-8,<svg")
    challenge = client.mfa.challenge({"factor_id": enrolled.id})
    assert challenge.expires_at > time.time()
    with pytest.raises(AuthApiError) as wrong:
        client.mfa.verify({"factor_id": enrolled.id, "challenge_id": challenge.id,
                           "code": "000000" if totp(enrolled.totp.secret) != "000000" else "111111"})
    assert wrong.value.status == 422 and wrong.value.code == "mfa_verification_failed"
    verified = client.mfa.verify({"factor_id": enrolled.id, "challenge_id": challenge.id,
                                  "code": totp(enrolled.totp.secret)})
    claims = claims_of(verified.access_token)
    assert claims["aal"] == "aal2"
    assert [entry["method"] for entry in claims["amr"]] == ["totp", "password"]
    # The challenge is spent.
    with pytest.raises(AuthApiError) as spent:
        client.mfa.verify({"factor_id": enrolled.id, "challenge_id": challenge.id,
                           "code": totp(enrolled.totp.secret)})
    assert spent.value.code == "mfa_challenge_expired"
    # A refresh keeps aal2.
    refreshed = client.refresh_session(verified.refresh_token)
    assert claims_of(refreshed.session.access_token)["aal"] == "aal2"
    factors = client.get_user(refreshed.session.access_token).user.factors
    assert [(f.id, f.status) for f in factors] == [(enrolled.id, "verified")]
    client.set_session(refreshed.session.access_token, refreshed.session.refresh_token)
    assert client.mfa.unenroll({"factor_id": enrolled.id}).id == enrolled.id


def test_admin_users_with_the_service_key(project):
    for key in (project.status["secret_key"], project.service_role_key):
        admin = admin_for(project, key)
        email = new_email("ci")
        made = admin.create_user({"email": email, "password": "walk-the-dog", "email_confirm": True,
                                  "user_metadata": {"dog": "rex"},
                                  "app_metadata": {"roles": ["walker"]}}).user
        assert made.email_confirmed_at and made.user_metadata == {"dog": "rex"}
        assert made.app_metadata["roles"] == ["walker"] and made.app_metadata["provider"] == "email"
        assert admin.get_user_by_id(made.id).user.email == email
        listed = admin.list_users(page=1, per_page=500)
        assert made.id in [user.id for user in listed]
        assert admin.update_user_by_id(made.id, {"user_metadata": {"walks": 1}}).user.user_metadata \
            == {"dog": "rex", "walks": 1}
        assert client_for(project).sign_in_with_password(
            {"email": email, "password": "walk-the-dog"}).session
        admin.delete_user(made.id)
        with pytest.raises(AuthApiError) as gone:
            admin.get_user_by_id(made.id)
        assert gone.value.status == 404 and gone.value.code == "user_not_found"


def test_admin_soft_delete_keeps_the_row_and_ends_the_sessions(project):
    admin = admin_for(project)
    email = new_email("soft")
    made = admin.create_user({"email": email, "password": "walk-the-dog", "email_confirm": True}).user
    session = client_for(project).sign_in_with_password({"email": email, "password": "walk-the-dog"})
    admin.delete_user(made.id, should_soft_delete=True)
    kept = admin.get_user_by_id(made.id).user
    assert kept.deleted_at and not kept.email
    answer = httpx.get(project.auth_url + "/user",
                       headers=project.headers(token=session.session.access_token))
    assert answer.status_code == 403
    assert client_for(project).sign_up({"email": email, "password": "walk-the-dog"}).user


def test_admin_pagination_headers(project):
    admin = admin_for(project)
    for _ in range(3):
        admin.create_user({"email": new_email("page"), "password": "walk-the-dog"})
    answer = httpx.get(project.auth_url + "/admin/users", params={"page": "1", "per_page": "2"},
                       headers={"apikey": project.status["secret_key"]})
    assert answer.status_code == 200 and len(answer.json()["users"]) == 2
    total = int(answer.headers["x-total-count"])
    last = (total + 1) // 2
    assert answer.headers["link"] == (
        f'</admin/users?page=2&per_page=2>; rel="next", </admin/users?page={last}&per_page=2>; rel="last"')


def test_generate_link_and_invite(project):
    admin = admin_for(project)
    email = new_email("invited")
    invited = admin.invite_user_by_email(email, {"data": {"team": "walkers"}}).user
    assert invited.invited_at and invited.user_metadata == {"team": "walkers"}
    mail = newest_mail(project, email, "invite")
    assert mail["subject"] == "You have been invited" and "type=invite" in mail["link"]
    signup = admin.generate_link({"type": "signup", "email": new_email("gen"),
                                  "password": "walk-the-dog",
                                  "options": {"redirect_to": "http://localhost:3000/welcome"}})
    assert signup.properties.verification_type == "signup"
    assert signup.properties.redirect_to == "http://localhost:3000/welcome"
    assert signup.properties.action_link.startswith(project.auth_url + "/verify?token=")
    assert len(signup.properties.email_otp) == 6
    followed = httpx.get(signup.properties.action_link, follow_redirects=False)
    assert followed.headers["location"].startswith("http://localhost:3000/welcome#access_token=")
    # generate_link sends nothing.
    assert not inbox(project, signup.user.email)
    magic = admin.generate_link({"type": "magiclink", "email": signup.user.email})
    session = client_for(project).verify_otp(
        {"email": signup.user.email, "token": magic.properties.email_otp, "type": "magiclink"})
    assert session.user.id == signup.user.id


def test_logout_scopes(project):
    email = new_email("scopes")
    client_for(project).sign_up({"email": email, "password": "walk-the-dog"})
    sessions = [client_for(project).sign_in_with_password({"email": email, "password": "walk-the-dog"})
                .session for _ in range(3)]

    def alive(session):
        return httpx.get(project.auth_url + "/user",
                         headers=project.headers(token=session.access_token)).status_code == 200

    out = httpx.post(project.auth_url + "/logout", params={"scope": "others"},
                     headers=project.headers(token=sessions[0].access_token))
    assert out.status_code == 204
    assert [alive(s) for s in sessions] == [True, False, False]
    out = httpx.post(project.auth_url + "/logout", params={"scope": "local"},
                     headers=project.headers(token=sessions[0].access_token))
    assert out.status_code == 204 and not alive(sessions[0])


# --- What the official client's own suite (supabase-py src/auth/tests) checks, in our own cases ---

def test_the_admin_api_confirms_a_pending_sign_up(confirming):
    """The suite signs up where e-mails are confirmed, then confirms with the admin API (in its
    docker setup, another GoTrue server over the same database; here the same project)."""
    client = client_for(confirming)
    email = new_email("pending")
    pending = client.sign_up({"email": email, "password": "walk-the-dog"}).user
    assert pending.email_confirmed_at is None
    confirmed = admin_for(confirming).update_user_by_id(pending.id, {"email_confirm": True}).user
    assert confirmed.email_confirmed_at and confirmed.id == pending.id
    assert client.sign_in_with_password({"email": email, "password": "walk-the-dog"}).session


def test_generate_link_for_an_email_change(project):
    admin = admin_for(project)
    email, moved = new_email("old"), new_email("new")
    admin.create_user({"email": email, "password": "walk-the-dog", "email_confirm": True})
    for kind in ("email_change_current", "email_change_new"):
        link = admin.generate_link({"type": kind, "email": email, "new_email": moved,
                                    "options": {"redirect_to": "http://localhost:3000/welcome"}})
        assert link.user.email == email and link.user.new_email == moved
        assert link.properties.verification_type == kind  # GoTrue echoes the type asked for
        assert len(link.properties.email_otp) == 6
    assert not inbox(project, moved)  # generate_link sends nothing


def test_the_admin_api_signs_a_user_out(project):
    admin = admin_for(project)
    session = client_for(project).sign_up(
        {"email": new_email("out"), "password": "walk-the-dog"}).session
    admin.sign_out(session.access_token)
    with pytest.raises(AuthApiError) as ended:
        client_for(project).refresh_session(session.refresh_token)
    assert ended.value.code == "refresh_token_not_found"
    with pytest.raises(AuthError):
        admin.sign_out("this-is-a-bad-token")


def test_factors_identities_and_levels_as_the_client_reads_them(project):
    client = client_for(project)
    email = new_email("levels")
    session = client.sign_up({"email": email, "password": "walk-the-dog"}).session
    client.set_session(session.access_token, session.refresh_token)
    assert client.get_user_identities().identities[0].identity_data["email"] == email
    listed = client.mfa.list_factors()
    assert listed.totp == [] and listed.phone == [] and listed.all == []
    level = client.mfa.get_authenticator_assurance_level()
    assert (level.current_level, level.next_level) == ("aal1", "aal1")
    enrolled = client.mfa.enroll({"factor_type": "totp", "friendly_name": "watch"})
    verified = client.mfa.challenge_and_verify(
        {"factor_id": enrolled.id, "code": totp(enrolled.totp.secret)})
    client.set_session(verified.access_token, verified.refresh_token)
    level = client.mfa.get_authenticator_assurance_level()
    assert (level.current_level, level.next_level) == ("aal2", "aal2")
    assert [entry.method for entry in level.current_authentication_methods][0] == "totp"
    admin = admin_for(project)
    factors = admin.mfa.list_factors({"user_id": verified.user.id})
    assert [(f.friendly_name, f.factor_type, f.status) for f in factors] == \
        [("watch", "totp", "verified")]
    admin.mfa.delete_factor({"id": factors[0].id, "user_id": verified.user.id})
    assert admin.mfa.list_factors({"user_id": verified.user.id}) == []


def test_weak_passwords_and_requests_that_tell_no_one(project):
    client = client_for(project)
    with pytest.raises(AuthWeakPasswordError) as weak:
        client.sign_up({"email": new_email("weak"), "password": "123"})
    assert weak.value.status == 422 and weak.value.reasons == ["length"]
    # Nothing is pending for an unknown address: `{}`, no error, nothing sent.
    unknown = new_email("unknown")
    client.resend({"type": "email_change", "email": unknown})
    client.reset_password_email(unknown)
    assert not inbox(project, unknown)
    with pytest.raises(AuthApiError) as missing:
        client.sign_in_with_password({"email": unknown, "password": "walk-the-dog"})
    assert missing.value.status == 400 and missing.value.code == "invalid_credentials"
    session = client.sign_up({"email": new_email("reauth"), "password": "walk-the-dog"}).session
    client.set_session(session.access_token, session.refresh_token)
    client.reauthenticate()
    assert newest_mail(project, session.user.email, "reauthentication")["otp"]
