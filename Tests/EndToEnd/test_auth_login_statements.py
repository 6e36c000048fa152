"""`login apple id-token ...` and `login provider github` (issue 39, the statements): signing in
through another identity provider from a script and at the prompt, against the local project's
test issuer. The id_token and the nonce are secrets: never printed, echoed, kept in the history
or shown by `explain`."""
import pytest

from auth_helpers import new_email
from conftest import SNM, run_snm


@pytest.fixture(scope="module")
def apple_project(start_extra_project):
    return start_extra_project("auth-login-apple", "--apple")


@pytest.fixture
def home(home):
    return {**home, "SUPABASE_URL": "", "SUPABASE_ANON_KEY": "", "SUPABASE_SECRET_KEY": "",
            "SUPABASE_SERVICE_ROLE_KEY": "", "SUPABASE_PUBLISHABLE_KEY": ""}


def mint(project, email, *flags):
    result = run_snm("local", "idp", "token", "--dir", str(project.data_dir), "--provider",
                     "apple", "--email", email, *flags)
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def snm(project, *args, env=None):
    return run_snm("--url", project.url, "--key", project.anon_key, *args, env=env)


def test_a_script_signs_in_with_apple(apple_project, home, tmp_path):
    email = new_email("login-apple")
    token = mint(apple_project, email, "--nonce", "raw-nonce-7")
    script = tmp_path / "apple.snm"
    script.write_text("login apple id-token $env.APPLE_TOKEN nonce 'raw-nonce-7'\n"
                      "let me = user show\n"
                      "expect $me.app_metadata.provider == 'apple'\n"
                      "session show\n")
    done = snm(apple_project, "--echo", str(script), env={**home, "APPLE_TOKEN": token})
    assert done.returncode == 0, done.stderr
    assert f"signed in as {email} with apple" in done.stdout
    assert token not in done.stdout + done.stderr
    # A token in the source is masked wherever the line is shown (a fresh token: one signs in
    # once).
    token = mint(apple_project, email, "--nonce", "raw-nonce-8")
    written = tmp_path / "written.snm"
    written.write_text(f"login apple id-token '{token}' nonce 'raw-nonce-8'\n")
    echoed = snm(apple_project, "--echo", str(written), env=home)
    assert echoed.returncode == 0, echoed.stderr
    assert "login apple id-token '********' nonce '********'" in echoed.stdout + echoed.stderr
    assert token not in echoed.stdout + echoed.stderr


def test_session_check_shows_the_provider_and_assurance_level(apple_project, home, tmp_path):
    """`session check` (and `$session`) name the provider the stored session signed in with and
    its AAL, read from the access token's amr and aal: apple for an id_token sign-in, email for a
    password, aal2 once a TOTP factor was verified."""
    email = new_email("check-apple")
    script = tmp_path / "check.snm"
    script.write_text("login apple id-token $env.APPLE_TOKEN nonce 'raw-nonce-9'\n"
                      "session check\n"
                      "expect $session.provider == 'apple'\n")
    done = snm(apple_project, str(script),
               env={**home, "APPLE_TOKEN": mint(apple_project, email, "--nonce", "raw-nonce-9")})
    assert done.returncode == 0, done.stderr
    assert f"signed in as {email} (authenticated) with apple, aal1, " in done.stdout
    other = new_email("check-password")
    script.write_text(f"signup email '{other}' password $env.PW\n"
                      "session check\n"
                      "let f = mfa enroll totp name 'ci'\n"
                      "mfa verify $f.id secret $f.secret\n"
                      "session check\n"
                      "expect $session.provider == 'email'\n"
                      "expect $session.aal == 'aal2'\n")
    done = snm(apple_project, str(script), env={**home, "PW": "walk-the-dog-9"})
    assert done.returncode == 0, done.stderr
    assert f"signed in as {other} (authenticated) with email, aal1, " in done.stdout
    assert f"signed in as {other} (authenticated) with email, aal2, " in done.stdout


def test_a_refused_token_fails_the_sign_in(apple_project, home):
    token = mint(apple_project, new_email("login-apple-bad"), "--nonce", "n-1")
    done = snm(apple_project, "-c", "login apple id-token $env.T nonce 'n-2'",
               env={**home, "T": token})
    assert done.returncode == 3
    assert "-c:1:1: error: sign-in failed: login apple id-token $env.T nonce '********'" \
        in done.stderr
    assert "login failed: auth server answered 400: Nonces mismatch" in done.stderr
    assert token not in done.stdout + done.stderr


def test_explain_and_check_never_show_the_token(home, tmp_path):
    token = "eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl"
    explained = run_snm("explain", f"login apple id-token '{token}' nonce 'raw-1'", env=home)
    assert explained.returncode == 0, explained.stderr
    assert "POST /auth/v1/token" in explained.stdout and "grant_type = id_token" in explained.stdout
    assert '"id_token":"********","nonce":"********"' in explained.stdout
    assert "signInWithIdToken(credentials: OpenIDConnectCredentials(provider: \"apple\"" \
        in explained.stdout
    curl = run_snm("explain", "--curl", f"login apple id-token '{token}'", env=home)
    assert curl.returncode == 0 and "grant_type=id_token" in curl.stdout
    assert token not in explained.stdout + curl.stdout
    provider = run_snm("explain", "--curl", "login provider github", env=home)
    assert provider.returncode == 0, provider.stderr
    assert "/auth/v1/authorize?provider=github" in provider.stdout
    assert "grant_type=pkce" in provider.stdout
    script = tmp_path / "logins.snm"
    script.write_text("login provider gihtub\n"
                      f"login apple id-token {token}\n"
                      "login apple id-token $env.APPLE_TOKEN nonce 'n'\n")
    checked = run_snm("check", str(script), env=home)
    assert checked.returncode == 2
    assert "logins.snm:1:16: error: expected" in checked.stderr
    assert "did you mean 'github'?" in checked.stderr
    assert "logins.snm:2:22: error: expected the id_token after 'id-token', found an unquoted " \
        "token" in checked.stderr
    assert "logins.snm:3" not in checked.stderr
    assert token not in checked.stderr


def test_the_prompt_signs_in_with_apple_and_keeps_no_token(apple_project, tmp_path):
    from tmux_shell import TmuxShell
    email = new_email("prompt-apple")
    token = mint(apple_project, email, "--nonce", "n-9")
    env = {"SUPABASE_URL": apple_project.url, "SUPABASE_ANON_KEY": apple_project.anon_key,
           "APPLE_TOKEN": token,
           "XDG_STATE_HOME": str(tmp_path / "state"), "XDG_CACHE_HOME": str(tmp_path / "cache"),
           "XDG_CONFIG_HOME": str(tmp_path / "config"), "PAGER": "cat", "NO_COLOR": "1"}
    with TmuxShell([SNM], env=env) as shell:
        shell.wait_for_prompt()
        screen = shell.run("login apple id-token $env.APPLE_TOKEN nonce 'n-9'")
        assert f"signed in as {email} with apple" in screen
        name = email.split("@")[0]
        assert screen.splitlines()[-1] == f"snm {name}@local>"
        shell.run(f"login apple id-token '{token}' nonce 'n-9'")
        shell.run("session show")
        shell.press("C-d")
        shell.wait_for_text("[snm exited 0]")
    history = (tmp_path / "state" / "snm" / "history").read_text()
    assert "session show" in history
    assert "id-token" not in history and token not in history
