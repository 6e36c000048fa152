"""The phone provider of `snm local` (issue 21): sign-up, sign-in, OTP, verify and resend by
phone, with GoTrue's shapes, through the official `supabase-auth` client and through snm's own
statements. The project has no SMS provider: texts go to the local inbox (kind `sms`, under the
number's digits), and a number with a test code (`--sms-test-otp`, the Supabase CLI's
`[auth.sms.test_otp]`) is texted nothing and always takes that code, as GoTrue's test OTPs."""
import json
import pathlib
import random

import httpx
import pytest
from supabase_auth import SyncGoTrueAdminAPI, SyncGoTrueClient
from supabase_auth.errors import AuthApiError

from auth_helpers import claims_of, inbox, newest_mail
from conftest import run_snm

TEST_NUMBER = "+15555550100"
TEST_CODE = "246810"


@pytest.fixture(scope="module")
def phones(start_extra_project):
    """Phone sign-ups on, no confirmation (the CLI's `[auth.sms] enable_signup = true`)."""
    return start_extra_project(
        "auth-phones", "--phone-signup", "--sms-test-otp", f"{TEST_NUMBER}={TEST_CODE}")


@pytest.fixture(scope="module")
def confirming_phones(start_extra_project):
    """Phone sign-ups on, and a new number verifies its texted code first."""
    return start_extra_project("auth-confirming-phones", "--phone-signup", "--confirm-phone")


def new_phone():
    return "+1" + "".join(random.choice("0123456789") for _ in range(10))


def digits(phone):
    return phone.lstrip("+")


def client_for(project):
    return SyncGoTrueClient(url=project.auth_url, headers=project.headers(),
                            auto_refresh_token=False, persist_session=False)


def admin_for(project):
    return SyncGoTrueAdminAPI(url=project.auth_url,
                              headers={"apikey": project.status["secret_key"]})


def settings_of(project):
    return httpx.get(project.auth_url + "/settings", headers=project.headers()).json()


def test_without_the_phone_provider_phones_are_refused(project):
    client = client_for(project)
    with pytest.raises(AuthApiError) as signup:
        client.sign_up({"phone": new_phone(), "password": "walk-the-dog"})
    assert signup.value.status == 400 and signup.value.code == "phone_provider_disabled"
    with pytest.raises(AuthApiError) as otp:
        client.sign_in_with_otp({"phone": new_phone()})
    assert otp.value.status == 400 and otp.value.code == "phone_provider_disabled"
    with pytest.raises(AuthApiError) as login:
        client.sign_in_with_password({"phone": new_phone(), "password": "walk-the-dog"})
    assert login.value.status == 422 and login.value.code == "phone_provider_disabled"
    assert settings_of(project)["external"]["phone"] is False


def test_sign_up_and_in_with_a_phone(phones):
    client = client_for(phones)
    phone = new_phone()
    answer = client.sign_up({"phone": phone, "password": "walk-the-dog"})
    assert answer.session and answer.user.phone == digits(phone) and answer.user.email == ""
    assert answer.user.phone_confirmed_at and answer.user.confirmed_at
    assert [identity.provider for identity in answer.user.identities] == ["phone"]
    assert answer.user.app_metadata["provider"] == "phone"
    assert claims_of(answer.session.access_token)["phone"] == digits(phone)
    again = client.sign_in_with_password({"phone": phone, "password": "walk-the-dog"})
    assert again.user.id == answer.user.id
    with pytest.raises(AuthApiError) as wrong:
        client.sign_in_with_password({"phone": phone, "password": "not-the-one"})
    assert wrong.value.status == 400 and wrong.value.code == "invalid_credentials"
    with pytest.raises(AuthApiError) as taken:
        client.sign_up({"phone": phone, "password": "walk-the-dog"})
    assert taken.value.status == 422 and taken.value.code == "user_already_exists"
    # The client sends one of the two; GoTrue refuses both.
    both = httpx.post(phones.auth_url + "/signup", headers=phones.headers(),
                      json={"phone": new_phone(), "email": "both@example.com", "password": "x" * 8})
    assert both.status_code == 400 and both.json()["error_code"] == "validation_failed"
    settings = settings_of(phones)
    assert settings["external"]["phone"] is True and settings["phone_autoconfirm"] is True


def test_a_confirming_project_texts_the_code_to_the_inbox(confirming_phones):
    client = client_for(confirming_phones)
    phone = new_phone()
    answer = client.sign_up({"phone": phone, "password": "walk-the-dog"})
    assert answer.session is None and answer.user.phone == digits(phone)
    assert answer.user.phone_confirmed_at is None and answer.user.confirmation_sent_at
    with pytest.raises(AuthApiError) as unconfirmed:
        client.sign_in_with_password({"phone": phone, "password": "walk-the-dog"})
    assert unconfirmed.value.status == 400 and unconfirmed.value.code == "phone_not_confirmed"
    text = newest_mail(confirming_phones, phone, "sms")  # asked for with the +, kept as digits
    assert text["to"] == digits(phone) and text["link"] is None
    assert text["text"] == f"Your code is {text['otp']}" and len(text["otp"]) == 6
    # Another text within the CLI's max_frequency (5 s) is refused, as GoTrue does.
    with pytest.raises(AuthApiError) as soon:
        client.resend({"type": "sms", "phone": phone})
    assert soon.value.status == 429 and soon.value.code == "over_sms_send_rate_limit"
    with pytest.raises(AuthApiError) as wrong:
        client.verify_otp({"phone": phone, "token": "000000" if text["otp"] != "000000"
                           else "111111", "type": "sms"})
    assert wrong.value.status == 403 and wrong.value.code == "otp_expired"
    verified = client.verify_otp({"phone": phone, "token": text["otp"], "type": "sms"})
    assert verified.session and verified.user.phone_confirmed_at
    assert claims_of(verified.session.access_token)["amr"][0]["method"] == "otp"
    assert client.sign_in_with_password({"phone": phone, "password": "walk-the-dog"}).session
    with pytest.raises(AuthApiError) as reused:
        client.verify_otp({"phone": phone, "token": text["otp"], "type": "sms"})
    assert reused.value.status == 403 and reused.value.code == "otp_expired"
    # A confirmed number is not texted again, and neither is a number no one has.
    before = len(inbox(confirming_phones, phone))
    client.resend({"type": "sms", "phone": phone})
    client.resend({"type": "sms", "phone": new_phone()})
    assert len(inbox(confirming_phones, phone)) == before


def test_resend_texts_an_unconfirmed_number_again(confirming_phones):
    phone = new_phone()
    made = admin_for(confirming_phones).create_user({"phone": phone})
    assert made.user.phone == digits(phone) and made.user.phone_confirmed_at is None
    assert inbox(confirming_phones, phone) == []  # the admin API texts no one
    sent = client_for(confirming_phones).resend({"type": "sms", "phone": phone})
    text = newest_mail(confirming_phones, phone, "sms")
    assert sent.message_id == text["id"]
    session = client_for(confirming_phones).verify_otp(
        {"phone": phone, "token": text["otp"], "type": "sms"})
    assert session.user.id == made.user.id


def test_otp_sign_in_with_a_test_number_and_a_texted_one(phones):
    client = client_for(phones)
    sent = client.sign_in_with_otp({"phone": TEST_NUMBER})
    assert sent.message_id == "test-otp"
    assert inbox(phones, TEST_NUMBER) == []  # a test number is texted nothing
    with pytest.raises(AuthApiError) as soon:
        client.sign_in_with_otp({"phone": TEST_NUMBER})
    assert soon.value.status == 429 and soon.value.code == "over_sms_send_rate_limit"
    session = client.verify_otp({"phone": TEST_NUMBER, "token": TEST_CODE, "type": "sms"})
    assert session.user.phone == digits(TEST_NUMBER)
    # The test code works again (GoTrue checks it before the stored one), a wrong code never.
    assert client.verify_otp({"phone": TEST_NUMBER, "token": TEST_CODE, "type": "sms"}).session
    with pytest.raises(AuthApiError) as wrong:
        client.verify_otp({"phone": TEST_NUMBER, "token": "135791", "type": "sms"})
    assert wrong.value.code == "otp_expired"
    phone = new_phone()
    sent = client.sign_in_with_otp({"phone": phone})  # a new user, confirmed at once
    text = newest_mail(phones, phone, "sms")
    assert sent.message_id == text["id"]
    assert client.verify_otp({"phone": phone, "token": text["otp"], "type": "sms"}).session
    with pytest.raises(AuthApiError) as closed:
        client.sign_in_with_otp({"phone": new_phone(), "options": {"should_create_user": False}})
    assert closed.value.status == 422 and closed.value.code == "otp_disabled"


def test_phone_numbers_are_checked_as_gotrue_checks_them(phones):
    client = client_for(phones)
    for call in (lambda: client.sign_in_with_otp({"phone": "12-34"}),
                 lambda: client.verify_otp({"phone": "+0123", "token": "123456", "type": "sms"}),
                 lambda: client.sign_up({"phone": "phone", "password": "walk-the-dog"})):
        with pytest.raises(AuthApiError) as refused:
            call()
        assert refused.value.status == 400
        assert refused.value.message == "Invalid phone number format (E.164 required)"
    admin = admin_for(phones)
    phone = new_phone()
    made = admin.create_user({"phone": phone, "phone_confirm": True, "password": "walk-the-dog"})
    assert made.user.phone_confirmed_at
    assert client.sign_in_with_password({"phone": phone, "password": "walk-the-dog"}).session
    with pytest.raises(AuthApiError) as taken:
        admin.create_user({"phone": phone})
    assert taken.value.status == 422 and taken.value.code == "phone_exists"


def test_the_language_signs_in_by_phone(phones, home, tmp_path):
    env = {**home, "SUPABASE_URL": "", "SUPABASE_ANON_KEY": "", "SUPABASE_PUBLISHABLE_KEY": "",
           "SUPABASE_SECRET_KEY": "", "SUPABASE_SERVICE_ROLE_KEY": ""}
    base = ["--url", phones.url, "--key", phones.status["publishable_key"],
            "--service-key", phones.status["secret_key"]]
    phone = new_phone()
    script = (f"login otp phone '{phone}'\n"
              f"let sms = inbox '{phone}'\n"
              "expect $sms.kind == 'sms'\n"
              f"verify otp phone '{phone}' token $sms.otp\n"
              "session show\n"
              f"resend sms '{phone}'\n")
    done = run_snm(*base, "--echo", "-c", script, env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"a sign-in code was sent to {phone}" in done.stdout
    assert f"signed in as {digits(phone)}" in done.stdout
    assert "the sms text was sent again" in done.stdout
    # The test number's fixed code, written in the script: masked wherever it is printed.
    fixed = run_snm(*base, "--echo", "-c",
                    f"verify otp phone '{TEST_NUMBER}' token '{TEST_CODE}'\nuser show", env=env)
    assert fixed.returncode == 0, fixed.stderr
    assert TEST_CODE not in fixed.stdout + fixed.stderr
    assert "token '********'" in fixed.stdout


@pytest.mark.parametrize("statement, body", [
    ("login otp phone '+15555550100'",
     {"phone": "+15555550100", "create_user": True, "channel": "sms"}),
    ("verify otp phone '+15555550100' token '123456'",
     {"type": "sms", "phone": "+15555550100", "token": "********"}),
    ("verify otp phone '+15555550100' token '123456' type phone_change",
     {"type": "phone_change", "phone": "+15555550100", "token": "********"}),
    ("resend sms '+15555550100'", {"type": "sms", "phone": "+15555550100"}),
])
def test_explain_shows_the_phone_requests_masked(statement, body, home):
    done = run_snm("explain", "--json", statement, env=home)
    assert done.returncode == 0, done.stderr
    explained = json.loads(done.stdout.splitlines()[0])
    assert explained["body"] == body and explained["method"] == "POST"
    assert "123456" not in done.stdout
    readable = run_snm("explain", statement, env=home)
    assert readable.returncode == 0 and "123456" not in readable.stdout
    assert ".phone(\"+15555550100\")" in readable.stdout


def test_flags_are_remembered_and_undone(start_extra_project, snm_bin):
    handle = start_extra_project("auth-phone-flags", "--phone-signup", "--confirm-phone",
                                 "--sms-test-otp", "+15555550111=123456")
    state = json.loads((pathlib.Path(handle.data_dir) / "project.json").read_text())
    assert state["auth"]["phone_signup"] is True and state["auth"]["confirm_phone"] is True
    assert state["sms_test_otp"] == {"15555550111": "123456"}
    bad = run_snm("local", "start", "--dir", str(handle.data_dir), "--sms-test-otp", "12=abc")
    assert bad.returncode == 2 and "is not PHONE=CODE" in bad.stderr
