"""The account, MFA and admin flows of the built snm against the local project's GoTrue routes
(issue 21): a CI job's set-up and tear-down with the service key, a sign-up confirmed through the
inbox, TOTP enrolment to aal2, a password change, codes by mail; secrets never printed.
"""
import os
import shutil

import pytest

from conftest import ROOT, run_snm

PASSWORD = "password123"
SMOKE = ROOT / "scripts" / "smoke" / "_service" / "users-and-mfa.snm"


@pytest.fixture(scope="module")
def confirming(start_extra_project):
    """A project that wants e-mail addresses confirmed (`--confirm-email`)."""
    return start_extra_project("auth-confirm", "--confirm-email", auth_rate_limits=True)


@pytest.fixture
def home(home):
    return {**home, "SUPABASE_URL": "", "SUPABASE_ANON_KEY": "", "SUPABASE_SECRET_KEY": "",
            "SUPABASE_SERVICE_ROLE_KEY": "", "SUPABASE_PUBLISHABLE_KEY": ""}


def snm(project, *args, env, service=True):
    flags = ["--url", project.url, "--key", project.status["publishable_key"]]
    if service:
        flags += ["--service-key", project.status["secret_key"]]
    return run_snm(*flags, *args, env=env)


def test_the_smoke_script_runs_twice_in_a_row(confirming, home, tmp_path):
    secret = confirming.status["secret_key"]
    report = tmp_path / "report.xml"
    for _ in range(2):
        done = run_snm("test", "--url", confirming.url, "--key",
                       confirming.status["publishable_key"], "--service-key", secret,
                       "--report", f"junit={report}", str(SMOKE), env=home, timeout=120)
        assert done.returncode == 0, done.stdout + done.stderr
        assert done.stdout.splitlines()[-1] == "1 passed, 0 failed"
        for text in (done.stdout, done.stderr, report.read_text()):
            assert secret not in text
            assert "Smoke-pw" not in text


def test_codes_by_mail_sign_in(confirming, home):
    email = "otp-kim@example.com"
    made = snm(confirming, "-c", f"admin create user email '{email}' password 'Kim-pw-123' "
               "confirmed", env=home)
    assert made.returncode == 0, made.stderr
    flow = snm(confirming, "--echo", "-c",
               f"login otp email '{email}'\nlet mail = inbox '{email}'\n"
               f"verify otp email '{email}' token $mail.otp\nsession show\n"
               "let me = user show\nexpect $me.email == '" + email + "'\n"
               "password reset '" + email + "'\nlet reset = inbox '" + email + "'\n"
               "expect $reset.kind == 'recovery'\nlogout\n"
               "let gone = admin users where email eq '" + email + "'\n"
               "admin delete user $gone[0].id", env=home)
    assert flow.returncode == 0, flow.stdout + flow.stderr
    assert f"signed in as {email}" in flow.stdout
    assert "token '********'" not in flow.stdout  # the token came from a variable


def test_a_wrong_totp_code_is_refused_and_the_session_stays_aal1(confirming, home):
    email = "mfa-wrong@example.com"
    flow = snm(confirming, "-c",
               f"let u = admin create user email '{email}' password 'Mfa-pw-123' confirmed\n"
               f"login email '{email}' password 'Mfa-pw-123'\n"
               "let f = mfa enroll totp\nmfa verify $f.id code '000000'\n"
               "expect error mfa_verification_failed\nexpect $session.aal == 'aal1'\n"
               "mfa unenroll $f.id\nlogout\nadmin delete user $u.id", env=home)
    assert flow.returncode == 0, flow.stdout + flow.stderr


def test_admin_statements_without_the_service_key_send_nothing(confirming, home):
    done = snm(confirming, "-c", "admin users", env=home, service=False)
    # The project's own key is the publishable one: admin needs the service key.
    assert done.returncode == 2
    assert "needs the project's service key" in done.stderr
