"""The account, admin and `as service` statements of the built snm against the local project
(issue 21, the client side): what a user meets at the command line.

`as service` runs one statement with the service key under row-level security; the service key
comes from the project itself, `--service-key` or the variables, and never shows in output,
errors or the history; without one nothing is sent (exit 2).
"""
import pytest

from conftest import run_snm

ALICE = "0c8e5f7a-6b9d-4f1e-9a3b-2d4c6e8f0a1b"
PASSWORD = "password123"


@pytest.fixture
def home(home):
    return {**home, "SUPABASE_URL": "", "SUPABASE_ANON_KEY": "", "SUPABASE_SECRET_KEY": "",
            "SUPABASE_SERVICE_ROLE_KEY": "", "SUPABASE_PUBLISHABLE_KEY": ""}


def snm(project, *args, service=None, env=None, input=None):
    flags = ["--url", project.url, "--key", project.status["publishable_key"]]
    if service:
        flags += ["--service-key", service]
    return run_snm(*flags, *args, env=env, input=input)


def test_as_service_reads_past_row_level_security(project, home):
    secret = project.status["secret_key"]
    script = (f"login email 'alice@example.com' password '{PASSWORD}'\n"
              "let mine = from user_info select id\n"
              "let all = as service from user_info select id\n"
              "echo 'alice sees ${mine}'\n"
              "expect $all contains {\"id\": \"" + ALICE + "\"}\n")
    done = snm(project, "--format", "json", "-c", script, service=secret, env=home)
    assert done.returncode == 0, done.stderr
    # RLS lets alice read her own row and her mates'; the service key reads every seed user.
    counts = run_snm("--url", project.url, "--key", project.status["publishable_key"],
                     "--service-key", secret, "--format", "json", "-c",
                     "as service from user_info select id count exact", env=home)
    assert counts.returncode == 0, counts.stderr
    assert counts.stdout.count('"id"') >= 3
    for stream in (done.stdout, done.stderr, counts.stdout, counts.stderr):
        assert secret not in stream


def test_without_a_service_key_nothing_is_sent(project, home):
    for statement in ["as service from user_info select *", "admin users",
                      "inbox 'alice@example.com'"]:
        done = snm(project, "-c", statement, env=home)
        assert done.returncode == 2, (statement, done.stderr)
        assert "needs the project's service key: pass --service-key" in done.stderr


def test_the_service_key_from_the_variables_and_never_shown(project, home):
    secret = project.status["secret_key"]
    env = {**home, "SUPABASE_SERVICE_ROLE_KEY": secret}
    done = snm(project, "--echo", "-c", "as service from user_info select id limit 1\n"
               "as service from nosuch select *", env=env)
    assert done.returncode == 1
    assert "PGRST205" in done.stderr
    assert secret not in done.stdout + done.stderr
    explained = run_snm("explain", "--curl", "as service from user_info select id", env=env)
    assert explained.returncode == 0
    assert '"apikey: $SUPABASE_SERVICE_ROLE_KEY"' in explained.stdout
    assert secret not in explained.stdout


def test_a_profiles_service_key(project, home, tmp_path):
    config = tmp_path / "config" / "snm"
    config.mkdir(parents=True)
    (config / "config.json").write_text(
        '{"profiles": {"p": {"url": "%s", "publishable_key": "%s", "service_key": "%s"}}}'
        % (project.url, project.status["publishable_key"], project.status["secret_key"]))
    (config / "config.json").chmod(0o600)   # a server key: others may not read it
    done = run_snm("--profile", "p", "-c", "as service from user_info select id limit 1",
                   env=home)
    assert done.returncode == 0, done.stderr


def test_session_refresh_and_logout_scopes(project, home):
    login = f"login email 'bob@example.com' password '{PASSWORD}'\n"
    done = snm(project, "-c", login + "session refresh\nsession show\nlogout others\n"
               "session show", env=home)
    assert done.returncode == 0, done.stderr
    assert "(refreshed)" in done.stdout
    assert "aal         aal1" in done.stdout
    assert "signed out every other session; still signed in here" in done.stdout
    assert done.stdout.count("user_id") == 2
    # The stored session is kept: a second run is still bob until a global sign-out.
    again = snm(project, "-c", "user show\nlogout global\nsession show", env=home)
    assert again.returncode == 0, again.stderr
    assert "bob@example.com" in again.stdout
    assert "signed out everywhere" in again.stdout
    assert "not signed in" in again.stdout


def test_statements_with_codes_are_checked_offline_and_masked(tmp_path, home):
    script = tmp_path / "flow.snm"
    script.write_text(
        "verify otp email 'kim@example.com' token '918273' type signup\n"
        "mfa verify factor 0c8e5f7a-6b9d-4f1e-9a3b-2d4c6e8f0a1b code '564738' bogus\n")
    done = run_snm("check", str(script), env=home)
    assert done.returncode == 2
    assert "flow.snm:2:" in done.stderr
    assert "564738" not in done.stderr
    assert "code '********'" in done.stderr


def test_the_prompt_says_a_statement_ran_as_service(project, tmp_path):
    from conftest import SNM
    from tmux_shell import TmuxShell
    env = {"SUPABASE_URL": project.url, "SUPABASE_ANON_KEY": project.anon_key,
           "SUPABASE_SERVICE_ROLE_KEY": project.status["secret_key"],
           "XDG_STATE_HOME": str(tmp_path / "state"), "XDG_CACHE_HOME": str(tmp_path / "cache"),
           "XDG_CONFIG_HOME": str(tmp_path / "config"), "PAGER": "cat", "NO_COLOR": "1"}
    with TmuxShell([SNM], env=env) as shell:
        shell.wait_for_prompt()
        screen = shell.run("as service from user_info select id limit 1")
        assert screen.splitlines()[-1] == "snm anon@local[service]>"
        screen = shell.run("from user_info select id limit 1")
        assert screen.splitlines()[-1] == "snm anon@local>"
        shell.press("C-d")
        shell.wait_for_text("[snm exited 0]")
    history = (tmp_path / "state" / "snm" / "history").read_text()
    assert "as service from user_info select id limit 1" in history
    assert project.status["secret_key"] not in history


def test_a_script_enrols_and_verifies_totp(project, home, tmp_path):
    # A whole enrolment in a script: the code is computed from the factor's secret, the session
    # goes to aal2, and neither the secret nor the code is printed.
    script = tmp_path / "mfa.snm"
    script.write_text(
        "signup email 'mfa-${random 8}@example.com' password 'walk-the-dog-1'\n"
        "let f = mfa enroll totp name 'ci phone'\n"
        "let v = mfa verify factor $f.id secret $f.secret\n"
        "expect $v.aal == 'aal2'\n"

        "mfa unenroll $f.id\n")
    done = snm(project, "--format", "json", str(script), env=home)
    assert done.returncode == 0, (done.stdout, done.stderr)
    assert "otpauth://" not in done.stdout + done.stderr, "the URI holds the secret"


def test_the_statements_no_other_case_runs(confirming, home):
    """admin update user, admin link, admin invite, signup ... data, resend signup, login magic
    link, user update password and mfa factors, each as a user writes it, against a project that
    confirms e-mails; every user made is deleted again."""
    import uuid
    tag = uuid.uuid4().hex[:8]
    walker, invited, pending = (f"{name}-{tag}@example.com" for name in ("walker", "inv", "pend"))
    script = f"""
let u = admin create user email '{walker}' password 'First-pw-1'
admin update user $u.id {{"email_confirm": true, "user_metadata": {{"walks": 3}}}}
let link = admin link magiclink email '{walker}'
expect $link.verification_type == 'magiclink'
verify otp email '{walker}' token $link.email_otp type magiclink
user update password 'Second-pw-2'
let none = mfa factors
expect $none count 0
logout
login email '{walker}' password 'Second-pw-2'
let me = user show
expect $me.user_metadata.walks == 3
logout
let inv = admin invite '{invited}' data {{"team": "walkers"}}
let invitation = inbox '{invited}'
expect $invitation.kind == 'invite'
signup email '{pending}' password 'Third-pw-3' data {{"nick": "p"}}
resend signup '{pending}'
let again = inbox '{pending}'
expect $again.kind == 'signup'
verify otp email '{pending}' token $again.otp type signup
let p = user show
expect $p.user_metadata.nick == 'p'
login magic link '{walker}'
let magic = inbox '{walker}'
expect $magic.kind == 'magiclink'
admin delete user $u.id
admin delete user $inv.id
admin delete user $p.id
let left = admin users where email like '%-{tag}@example.com'
expect rows 0
"""
    done = snm(confirming, "-c", script, service=confirming.status["secret_key"], env=home)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "the signup mail was sent again" in done.stdout
    for secret in ("First-pw-1", "Second-pw-2", "Third-pw-3", confirming.status["secret_key"]):
        assert secret not in done.stdout + done.stderr


def test_verify_otp_takes_an_email_changes_two_codes_one_at_a_time(project, home):
    """Double confirmation: the first address's code is GoTrue's half-way answer (a 200 with a
    msg, no session); snm says which address is confirmed and that the other's code is needed,
    exits 0 and keeps the session; the second code completes the change and signs in."""
    import uuid
    tag = uuid.uuid4().hex[:8]
    old, new = f"mover-{tag}@example.com", f"moved-{tag}@example.com"
    script = f"""
let u = admin create user email '{old}' password 'Move-pw-123' confirmed
login email '{old}' password 'Move-pw-123'
user update email '{new}'
let to_new = inbox '{new}'
verify otp email '{new}' token $to_new.otp type email_change
expect $session.email == '{old}'
let half = user show
expect $half.email == '{old}'
let to_old = inbox '{old}'
verify otp email '{old}' token $to_old.otp type email_change
let done = user show
expect $done.email == '{new}'
expect $session.email == '{new}'
admin delete user $u.id
"""
    done = snm(project, "-c", script, service=project.status["secret_key"], env=home)
    assert done.returncode == 0, done.stdout + done.stderr
    assert (f"{new} is confirmed for the e-mail change; the code sent to the other address is "
            "still needed") in done.stdout
    assert f"signed in as {new}" in done.stdout
