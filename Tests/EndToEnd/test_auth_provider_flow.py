"""The OAuth providers' redirect flow of the local project (issue 39), the test issuer standing in
for GitHub (`--github`): `/authorize?provider=github` sends the browser to the test issuer's
sign-in page, which sends it to `/callback` with a code, and the callback to `redirect_to` with
`?code=` (PKCE, traded by `exchange_code_for_session`) or the session in the fragment (implicit);
GoTrue's answers for a bad state, a cancelled sign-in and sign-ups off. `login provider github`
runs the same flow from a script and at the prompt, a test standing in for the browser."""
import re
import subprocess
import urllib.parse

import httpx
import pytest
from supabase_auth import SyncGoTrueClient

from auth_helpers import claims_of, new_email
from conftest import SNM


@pytest.fixture(scope="module")
def github_project(start_extra_project):
    return start_extra_project("auth-github", "--github")


def client_for(project, flow_type):
    return SyncGoTrueClient(url=project.auth_url, headers=project.headers(),
                            auto_refresh_token=False, persist_session=False, flow_type=flow_type)


def browse(url, email=None, deny=False):
    """A browser without a key: follows the flow to the test issuer's page, signs in there as
    `email` (or cancels), and follows the project's redirects; the last Location, which points
    at the app (not followed)."""
    page = httpx.get(url, follow_redirects=True)
    assert page.status_code == 200 and "test issuer" in page.text, page.text
    assert "/idp/authorize" in str(page.url)
    answer = httpx.get(page.url.copy_merge_params({"deny": "1"} if deny else {"login": email}))
    assert answer.status_code == 302, answer.text
    callback = answer.headers["location"]
    assert callback.startswith(url.split("/authorize")[0] + "/callback?")
    back = httpx.get(callback)
    assert back.status_code == 302, back.text
    return back.headers["location"]


def query_of(location):
    return {k: v[0] for k, v in urllib.parse.parse_qs(urllib.parse.urlsplit(location).query).items()}


def fragment_of(location):
    return {k: v[0] for k, v in
            urllib.parse.parse_qs(urllib.parse.urlsplit(location).fragment,
                                  keep_blank_values=True).items()}


def test_pkce_sign_in_with_github_through_the_official_client(github_project):
    client = client_for(github_project, "pkce")
    email = new_email("github-pkce")
    app = "http://127.0.0.1:3999/app"
    started = client.sign_in_with_oauth({"provider": "github", "options": {"redirect_to": app}})
    location = browse(started.url, email)
    assert location.startswith(app + "?code=")
    session = client.exchange_code_for_session({"auth_code": query_of(location)["code"]}).session
    user = session.user
    assert user.email == email and user.email_confirmed_at
    assert user.app_metadata["provider"] == "github"
    assert user.identities[0].provider == "github"
    assert user.identities[0].identity_data["user_name"] == email.split("@")[0]
    assert claims_of(session.access_token)["amr"][0]["method"] == "oauth"
    # The same GitHub user again is the same user; a spent code is GoTrue's 404.
    again = client_for(github_project, "pkce")
    second = browse(again.sign_in_with_oauth(
        {"provider": "github", "options": {"redirect_to": app}}).url, email)
    assert again.exchange_code_for_session(
        {"auth_code": query_of(second)["code"]}).session.user.id == user.id
    spent = httpx.post(github_project.auth_url + "/token?grant_type=pkce",
                       headers=github_project.headers(),
                       json={"auth_code": query_of(location)["code"], "code_verifier": "v" * 43})
    assert spent.status_code == 404 and spent.json()["error_code"] == "flow_state_not_found"


def test_implicit_sign_in_puts_the_session_in_the_fragment(github_project):
    client = client_for(github_project, "implicit")
    email = new_email("github-implicit")
    app = "http://localhost:3999/done"
    location = browse(client.sign_in_with_oauth(
        {"provider": "github", "options": {"redirect_to": app}}).url, email)
    assert location.startswith(app + "#")
    fragment = fragment_of(location)
    assert list(fragment) == ["access_token", "expires_at", "expires_in", "provider_token",
                              "refresh_token", "sb", "token_type"]
    assert fragment["token_type"] == "bearer"
    assert claims_of(fragment["access_token"])["email"] == email


def test_a_cancelled_sign_in_and_a_bad_state_answer_as_gotrue(github_project):
    app = "http://127.0.0.1:3999/app"
    url = client_for(github_project, "pkce").sign_in_with_oauth(
        {"provider": "github", "options": {"redirect_to": app}}).url
    location = browse(url, deny=True)
    assert location.startswith(app + "?")
    assert query_of(location) == {
        "error": "access_denied",
        "error_description": "The user has denied your application access."}
    assert fragment_of(location)["error"] == "access_denied"
    for state, code, message in [
        ("", "bad_oauth_callback", "OAuth state parameter missing"),
        ("not-a-uuid", "bad_oauth_state", "OAuth state parameter is invalid"),
        ("0c8e5f7a-6b9d-4f1e-9a3b-2d4c6e8f0a1b", "bad_oauth_state",
         "OAuth state not found or expired"),
    ]:
        answer = httpx.get(github_project.auth_url + "/callback",
                           params={"code": "x", "state": state})
        assert answer.status_code == 303
        assert query_of(answer.headers["location"]) == {
            "error": "invalid_request", "error_code": code, "error_description": message}
    # A code the test issuer did not sign for this state.
    page = httpx.get(url, follow_redirects=True)
    state = query_of(str(page.url))["state"]
    forged = httpx.get(github_project.auth_url + "/callback",
                       params={"code": "x.y.z", "state": state})
    assert forged.status_code == 302
    assert query_of(forged.headers["location"])["error"] == "server_error"


def test_a_code_signs_in_once_even_when_its_first_callback_failed(github_project):
    """GitHub's codes are single-use: a code whose callback failed (the user was banned) and
    left the flow open is refused when it comes again; a fresh code for the flow signs in."""
    client = client_for(github_project, "pkce")
    email = new_email("github-once")
    app = "http://127.0.0.1:3999/app"
    first = browse(client.sign_in_with_oauth(
        {"provider": "github", "options": {"redirect_to": app}}).url, email)
    user = client.exchange_code_for_session({"auth_code": query_of(first)["code"]}).session.user
    admin = github_project.headers(key=github_project.service_role_key)

    def ban(duration):
        answer = httpx.put(f"{github_project.auth_url}/admin/users/{user.id}", headers=admin,
                           json={"ban_duration": duration})
        assert answer.status_code == 200, answer.text

    page = httpx.get(client_for(github_project, "pkce").sign_in_with_oauth(
        {"provider": "github", "options": {"redirect_to": app}}).url, follow_redirects=True)
    signed_in = httpx.get(page.url.copy_merge_params({"login": email}))
    callback = signed_in.headers["location"]
    ban("24h")
    banned = httpx.get(callback)
    assert banned.status_code == 302
    assert query_of(banned.headers["location"])["error_code"] == "user_banned"
    ban("none")
    replayed = httpx.get(callback)
    assert replayed.status_code == 302
    assert query_of(replayed.headers["location"]) == {
        "error": "server_error", "error_code": "unexpected_failure",
        "error_description": "Unable to exchange external code: the code was already used"}
    fresh = httpx.get(httpx.get(page.url.copy_merge_params({"login": email})).headers["location"])
    assert fresh.status_code == 302
    assert fresh.headers["location"].startswith(app + "?code=")


def test_authorize_checks_the_provider_and_pkce(github_project, project):
    bad = httpx.get(github_project.auth_url + "/authorize",
                    params={"provider": "github", "code_challenge": "short",
                            "code_challenge_method": "s256"})
    assert bad.status_code == 400 and bad.json()["msg"] == \
        "code challenge has to be between 43 and 128 characters"
    off = httpx.get(project.auth_url + "/authorize", params={"provider": "github"})
    assert off.status_code == 400
    assert off.json()["msg"] == "Unsupported provider: provider is not enabled"
    settings = httpx.get(github_project.auth_url + "/settings", headers=github_project.headers())
    assert settings.json()["external"]["github"] is True


def test_the_sign_in_page_escapes_a_quote_that_a_combining_mark_follows(github_project):
    """The page puts the request's `state` in an attribute: a `"` followed by a combining mark
    (one character to Swift, two code points to a browser's HTML parser) is escaped too, so
    the attribute cannot be ended by the request."""
    state = 'x"\u0301 autofocus onfocus="alert(1)'
    page = httpx.get(github_project.auth_url + "/idp/authorize",
                     params={"client_id": "dev.snm.local", "state": state,
                             "redirect_uri": github_project.auth_url + "/callback"})
    assert page.status_code == 200, page.text
    assert 'value="x&quot;\u0301 autofocus onfocus=&quot;alert(1)"' in page.text, page.text


def login_provider(project, home_env, email, extra_args=(), deny=False):
    """Runs `login provider github` in a script with a test standing in for the browser: reads
    the address snm prints and follows it, signing in as `email`."""
    env = {**home_env, "SUPABASE_URL": project.url, "SUPABASE_ANON_KEY": project.anon_key}
    process = subprocess.Popen(
        [SNM, *extra_args, "-c", "login provider github\nlet me = user show\n"
         "expect $me.app_metadata.provider == 'github'\nsession show"], env=env,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    printed = []
    while not printed or not printed[-1].startswith("  http"):
        line = process.stderr.readline()
        assert line, "".join(printed)
        printed.append(line)
    url = printed[-1].strip()
    location = browse(url, email, deny=deny)
    # The project sent the browser to snm's loopback port; follow it as the browser would.
    assert re.match(r"http://127\.0\.0\.1:\d+/callback\?", location), location
    page = httpx.get(location)
    assert page.status_code == 200 and ("did not finish" if deny else "signed in") in page.text
    out, err = process.communicate(timeout=30)
    return process.returncode, out, "".join(printed) + err


def test_login_provider_github_from_a_script(github_project, home):
    email = new_email("login-github")
    code, out, err = login_provider(github_project, home, email)
    assert code == 0, err
    assert "open this address in a browser to sign in with github" in err
    assert "code_challenge_method=s256" in err
    assert f"signed in as {email} with github" in out
    assert "aal         aal1" in out


def test_a_cancelled_login_provider_fails_the_sign_in(github_project, home):
    code, out, err = login_provider(github_project, home, None, deny=True)
    assert code == 3, err
    assert "-c:1:1: error: sign-in failed: login provider github" in err
    assert "signing in with github failed: The user has denied your application access. " \
        "(access_denied)" in err


def test_login_provider_github_at_the_prompt(github_project, tmp_path):
    from tmux_shell import TmuxShell
    email = new_email("prompt-github")
    env = {"SUPABASE_URL": github_project.url, "SUPABASE_ANON_KEY": github_project.anon_key,
           "XDG_STATE_HOME": str(tmp_path / "state"), "XDG_CACHE_HOME": str(tmp_path / "cache"),
           "XDG_CONFIG_HOME": str(tmp_path / "config"), "PAGER": "cat", "NO_COLOR": "1"}
    with TmuxShell([SNM], env=env, width=400) as shell:
        shell.wait_for_prompt()
        shell.type("login provider github")
        shell.press("Enter")
        screen = shell.wait_for(lambda s: "waiting for the browser" in s)
        url = next(line.strip() for line in screen.splitlines()
                   if line.strip().startswith("http") and "/authorize?" in line)
        location = browse(url, email)
        assert httpx.get(location).status_code == 200
        shell.wait_for_text(f"signed in as {email} with github")
        shell.wait_for_prompt(count=2)
        assert shell.last_line() == f"snm {email.split('@')[0]}@local>"
        shell.press("C-d")
        shell.wait_for_text("[snm exited 0]")


def test_login_provider_takes_a_pasted_address_or_code_at_the_prompt(github_project, tmp_path):
    """A browser on another machine cannot reach snm's loopback port: at the prompt the address
    it was sent to (its address bar), or the code alone, pasted and Enter finish the sign-in, as
    `gh auth login` allows. The loopback port is never visited here."""
    from tmux_shell import TmuxShell
    email = new_email("paste-github")
    env = {"SUPABASE_URL": github_project.url, "SUPABASE_ANON_KEY": github_project.anon_key,
           "XDG_STATE_HOME": str(tmp_path / "state"), "XDG_CACHE_HOME": str(tmp_path / "cache"),
           "XDG_CONFIG_HOME": str(tmp_path / "config"), "PAGER": "cat", "NO_COLOR": "1"}
    with TmuxShell([SNM], env=env, width=400) as shell:
        shell.wait_for_prompt()
        for round, paste in enumerate(["address", "code"]):
            shell.type("login provider github")
            shell.press("Enter")
            screen = shell.wait_for(lambda s: s.count("paste the address it was sent to") > round)
            url = [line.strip() for line in screen.splitlines()
                   if line.strip().startswith("http") and "/authorize?" in line][-1]
            location = browse(url, email)
            assert re.match(r"http://127\.0\.0\.1:\d+/callback\?code=", location), location
            shell.type(location if paste == "address" else query_of(location)["code"])
            shell.press("Enter")
            shell.wait_for(lambda s: s.count(f"signed in as {email} with github") > round)
            shell.wait_for_prompt(count=2 + round)
        assert shell.last_line() == f"snm {email.split('@')[0]}@local>"
        shell.press("C-d")
        shell.wait_for_text("[snm exited 0]")
